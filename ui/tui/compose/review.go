package compose

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// reviewKey is a key on the review screen: what it asks for.
type reviewAction int

const (
	reviewNone reviewAction = iota
	reviewSend
	reviewEdit
	reviewPostpone
	reviewDiscard
	reviewLeave
)

// action reads a key on the review screen; a discard of a text worth
// keeping is asked twice.
func (c Composer) action(k tea.KeyMsg) (Composer, reviewAction) {
	switch {
	case key.Matches(k, c.keys.Send):
		if c.problem != "" {
			return c, reviewNone
		}
		return c, reviewSend
	case key.Matches(k, c.keys.Edit):
		return c, reviewEdit
	case key.Matches(k, c.keys.Postpone):
		if c.problem != "" {
			return c, reviewNone
		}
		return c, reviewPostpone
	case key.Matches(k, c.keys.Discard):
		if strings.TrimSpace(c.Shown.Body) != "" && !c.confirm {
			c.confirm = true
			return c, reviewNone
		}
		return c, reviewDiscard
	case key.Matches(k, c.keys.Back):
		return c, reviewLeave
	case key.Matches(k, c.keys.Down, c.keys.Up, c.keys.PageDown, c.keys.PageUp, c.keys.Top, c.keys.Bottom):
		c.scroll = c.scrolled(k)
	}
	c.confirm = false
	return c, reviewNone
}

// View is the review screen: what stops the send stays at the top; the
// marks, the headers, the text and the message it answers scroll under
// it, and while any of them is below the screen the bottom line says so.
func (c Composer) View(width, height int) string {
	fixed, text := c.Page(width)
	shown, last := window(len(fixed), len(text), height)
	off := min(c.scroll, last)
	lines := append(fixed, text[off:min(off+shown, len(text))]...)
	if last > 0 {
		for len(lines) < len(fixed)+shown {
			lines = append(lines, "")
		}
		more := ""
		if off < last {
			more = c.styles.Label.Render(textsafe.Fit(fmt.Sprintf("↓ more (%s, %s)", screen.Hint(c.keys.Down), screen.Hint(c.keys.PageDown)), width))
		}
		lines = append(lines, more)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:height], "\n")
}

// window is how many lines of a text of n lines show under fixed lines in
// height, and the furthest it scrolls: when it does not fit whole, one
// line is kept under it for "↓ more".
func window(fixed, n, height int) (shown, last int) {
	avail := max(height-fixed, 1)
	if n <= avail {
		return avail, 0
	}
	shown = max(avail-1, 1)
	return shown, n - shown
}

// scrolled is where a scrolling key moves the text, within it.
func (c Composer) scrolled(k tea.KeyMsg) int {
	fixed, text := c.Page(c.Width)
	shown, last := window(len(fixed), len(text), c.Height)
	at := min(c.scroll, last)
	switch {
	case key.Matches(k, c.keys.Down):
		at++
	case key.Matches(k, c.keys.Up):
		at--
	case key.Matches(k, c.keys.PageDown):
		at += shown
	case key.Matches(k, c.keys.PageUp):
		at -= shown
	case key.Matches(k, c.keys.Top):
		at = 0
	case key.Matches(k, c.keys.Bottom):
		at = last
	}
	return max(min(at, last), 0)
}

// addressList is a list of addresses on one line, as the drafts view
// shows them (the review shows each address whole: reviewpage.go).
func addressList(l []model.Address) string {
	var out []string
	for _, a := range l {
		if a.Address != "" || a.Name != "" {
			out = append(out, screen.FormatAddr(a))
		}
	}
	return strings.Join(out, ", ")
}

// Header names the review screen's keys (the prompt's while it is up).
func (c Composer) Header() string {
	k := c.keys
	if c.prompt != nil {
		return fmt.Sprintf("attach a file · %s attaches · %s completes · %s cancels",
			screen.Hint(k.Open), screen.Hint(k.Complete), screen.Hint(k.Back))
	}
	return fmt.Sprintf("review · %s send · %s edit · %s attach · %s postpone · %s discard · %s keep as draft",
		screen.Hint(k.Send), screen.Hint(k.Edit), screen.Hint(k.Attach), screen.Hint(k.Postpone), screen.Hint(k.Discard), screen.Hint(k.Back))
}

// ShortHelp and FullHelp are the review screen's keys (attach, named
// in the header, is in the full help: the short line has no room left
// at 80 columns).
func (c Composer) ShortHelp() []key.Binding {
	k := c.keys
	switch {
	case c.prompt != nil:
		return c.promptHelp()
	case c.fromFix:
		return []key.Binding{k.OwnFrom, k.Edit, k.Discard, k.Back, k.Help}
	}
	return []key.Binding{k.Send, k.Edit, k.Postpone, k.Discard, k.Back, k.Help}
}
func (c Composer) FullHelp() [][]key.Binding {
	k := c.keys
	if c.prompt != nil {
		return [][]key.Binding{c.promptHelp()}
	}
	return [][]key.Binding{c.ShortHelp(), {k.Attach, k.EditRecipients, k.Down, k.Up, k.PageDown, k.PageUp, k.Top, k.Bottom}}
}

// faithful is a text that passed mailcompose.CheckDraftShowable as it will
// be read: every line and blank line kept, CR LF as a line end, tabs to
// the next multiple of 4 columns. textsafe.Block would trim and fold
// blank lines, and the review must not show a text that differs from
// the one sent. A text that did not pass is cleaned (its problem line
// says why it cannot go).
func faithful(body string) string {
	if mailcompose.CheckShowable("body", body, true) != nil {
		return textsafe.Block(body)
	}
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "\t") {
			continue
		}
		var b strings.Builder
		for _, r := range l {
			if r == '\t' {
				b.WriteString(strings.Repeat(" ", 4-textsafe.Width(b.String())%4))
				continue
			}
			b.WriteRune(r)
		}
		lines[i] = b.String()
	}
	return strings.TrimSuffix(strings.Join(lines, "\n"), "\n")
}
