package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/compose"
	"unibox/model/textsafe"
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
func (c composer) action(k tea.KeyMsg) (composer, reviewAction) {
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
		if strings.TrimSpace(c.shown.Body) != "" && !c.confirm {
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

// view is the review screen: what is wrong, the headers as they will
// go and the attachments stay at the top; the text, then the message it
// answers, scroll under them.
func (c composer) view(width, height int) string {
	fixed, text := c.page(width)
	avail := max(height-len(fixed), 1)
	off := min(c.scroll, max(len(text)-avail, 0))
	lines := append(fixed, text[off:min(off+avail, len(text))]...)
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:height], "\n")
}

// page is the review's lines: those that stay, and those that scroll.
func (c composer) page(width int) (fixed, text []string) {
	d := c.shown
	if c.problem != "" {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(textsafe.Line("cannot send: "+c.problem+" · "+hint(c.keys.Edit)+" edits"), width)))
	}
	if c.confirm {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(hint(c.keys.Discard)+" again discards this draft: its text is lost", width)))
	}
	fixed = append(fixed, c.markLines(width)...)
	field := func(name, value string) {
		fixed = append(fixed, textsafe.Fit(c.styles.Label.Render(fmt.Sprintf("%-8s", name))+" "+textsafe.Line(value), width))
	}
	field("From:", addressList([]model.Address{d.From}))
	field("To:", addressList(d.To))
	if len(d.Cc) > 0 {
		field("Cc:", addressList(d.Cc))
	}
	if len(d.Bcc) > 0 {
		field("Bcc:", addressList(d.Bcc))
	}
	field("Subject:", d.Subject)
	for _, p := range d.Attachments {
		field("Attach:", fmt.Sprintf("%s (%s, %s)", p.Name, p.Type, humanSize(int64(len(p.Data)))))
	}
	fixed = append(fixed, rule(width))
	text = strings.Split(wrap(faithful(d.Body), width), "\n")
	if c.answers == nil && c.answersNote == "" {
		return fixed, text
	}
	verb := "answers"
	if d.Kind == compose.KindForward {
		verb = "forwards"
	}
	text = append(text, textsafe.Fit("── "+verb+" "+strings.Repeat("─", max(width-4-len(verb), 0)), width))
	if c.answersNote != "" {
		return fixed, append(text, c.styles.Dim.Render(textsafe.Fit(textsafe.Line(c.answersNote), width)))
	}
	o := c.answers
	text = append(text, textsafe.Fit(c.styles.Label.Render("From:   ")+" "+textsafe.Line(formatAddr(o.From)+" · "+o.Date.Format("Mon, 2 Jan 2006 15:04")), width))
	text = append(text, textsafe.Fit(c.styles.Label.Render("Subject:")+" "+textsafe.Line(o.Subject), width), "")
	return fixed, append(text, strings.Split(wrap(textsafe.Block(o.Text), width), "\n")...)
}

// scrolled is where a scrolling key moves the text, within it.
func (c composer) scrolled(k tea.KeyMsg) int {
	fixed, text := c.page(c.width)
	avail := max(c.height-len(fixed), 1)
	last := max(len(text)-avail, 0)
	at := min(c.scroll, last)
	switch {
	case key.Matches(k, c.keys.Down):
		at++
	case key.Matches(k, c.keys.Up):
		at--
	case key.Matches(k, c.keys.PageDown):
		at += avail
	case key.Matches(k, c.keys.PageUp):
		at -= avail
	case key.Matches(k, c.keys.Top):
		at = 0
	case key.Matches(k, c.keys.Bottom):
		at = last
	}
	return max(min(at, last), 0)
}

// addressList is a list of addresses as the review shows them.
func addressList(l []model.Address) string {
	var out []string
	for _, a := range l {
		if a.Address != "" || a.Name != "" {
			out = append(out, formatAddr(a))
		}
	}
	return strings.Join(out, ", ")
}

// header names the review screen's keys.
func (c composer) header() string {
	k := c.keys
	return fmt.Sprintf("review · %s send · %s edit · %s postpone · %s discard · %s keep as draft",
		hint(k.Send), hint(k.Edit), hint(k.Postpone), hint(k.Discard), hint(k.Back))
}

// ShortHelp and FullHelp are the review screen's keys.
func (c composer) ShortHelp() []key.Binding {
	k := c.keys
	if c.fromFix {
		return []key.Binding{k.OwnFrom, k.Edit, k.Discard, k.Back, k.Help}
	}
	return []key.Binding{k.Send, k.Edit, k.Postpone, k.Discard, k.Back, k.Help}
}
func (c composer) FullHelp() [][]key.Binding {
	k := c.keys
	return [][]key.Binding{c.ShortHelp(), {k.Down, k.Up, k.PageDown, k.PageUp, k.Top, k.Bottom}}
}

// faithful is a text that passed compose.CheckDraftShowable as it will
// be read: every line and blank line kept, CR LF as a line end, tabs to
// the next multiple of 4 columns. textsafe.Block would trim and fold
// blank lines, and the review must not show a text that differs from
// the one sent. A text that did not pass is cleaned (its problem line
// says why it cannot go).
func faithful(body string) string {
	if compose.CheckShowable("body", body, true) != nil {
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

// maxMarkLines is how many lines the marks take at most: the headers and
// the text must stay on screen under them.
const maxMarkLines = 4

// markLines is the review's marks, each one line, at most maxMarkLines
// (the last then says how many more): what a person should see before
// sending, above what is sent.
func (c composer) markLines(width int) []string {
	if c.checking {
		return []string{c.styles.Dim.Render(textsafe.Fit("checking whom this account has written to…", width))}
	}
	if len(c.marks) == 0 {
		return []string{c.styles.Dim.Render(textsafe.Fit("every recipient has been written to before", width))}
	}
	var out []string
	for i, mk := range c.marks {
		if len(out) == maxMarkLines-1 && len(c.marks) > maxMarkLines {
			out = append(out, c.styles.StatusError.Render(textsafe.Fit(fmt.Sprintf("! and %d more", len(c.marks)-i), width)))
			break
		}
		text := mk.Text
		if mk.Field != "" {
			text = mk.Field + ": " + text
		}
		out = append(out, c.styles.StatusError.Render(textsafe.Fit("! "+textsafe.Line(text), width)))
	}
	return out
}
