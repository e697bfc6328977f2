package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"unibox/model/textsafe"
	"unibox/ui/tui/accountbar"
	"unibox/ui/tui/screen"
)

// View draws bar, header, body, status line and help; every region has a
// fixed height so rows arriving or leaving never move the layout.
func (m *Model) View() string {
	if m.frame.width < MinWidth || m.frame.height < MinHeight {
		return m.frame.tooSmall()
	}
	now := m.env.Opts.Now()
	var b strings.Builder
	b.WriteString(m.panes.bar(m.env.Styles, m.frame.width, now, m.folder.At))
	b.WriteByte('\n')
	if m.filter.active {
		b.WriteString(m.filter.View(m.frame.width, 1))
	} else {
		// Account names may hold bidi controls and clusters terminals
		// disagree on (the config refuses only control characters).
		b.WriteString(m.env.Styles.Header.Render(textsafe.Fit(textsafe.Line(m.header(now)), m.frame.width)))
	}
	b.WriteByte('\n')
	b.WriteString(m.screenAt(now).View(m.frame.width, m.list.height))
	b.WriteByte('\n')
	st := m.env.Styles.Status
	status := m.frame.status
	help := m.frame.helpPageOf(m.helpKeys(), m.env.Keys.Help)
	if m.ask.prompt != nil {
		// The prompt is the status line, its list under it, over the help.
		b.WriteString(m.ask.prompt.Line(m.frame.width))
		b.WriteByte('\n')
		if u := m.under(lipgloss.Height(help)); u != "" {
			b.WriteString(u)
			b.WriteByte('\n')
		}
		b.WriteString(m.helpLines(help))
		return b.String()
	}
	if line, waiting := m.compose.Countdown(now); waiting {
		status = line // the message waiting out send_delay, and how to take it back
	} else if m.frame.statusErr {
		st = m.env.Styles.StatusError
	}
	b.WriteString(st.Render(textsafe.Fit(textsafe.Line(status), m.frame.width)))
	b.WriteByte('\n')
	b.WriteString(m.helpLines(help))
	return b.String()
}

// helpLines is the help's page cut to the width: bubbles/help can
// overflow by one item when its ellipsis does not fit (escape-sequence
// aware).
func (m *Model) helpLines(page string) string {
	lines := strings.Split(page, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.frame.width, "…")
	}
	return strings.Join(lines, "\n")
}

// bar is the account bar: one badge per pane.
func (p *accountPanes) bar(styles screen.Styles, width int, now time.Time, folderAt func(int) string) string {
	badges := make([]accountbar.Badge, len(p.accts))
	for i, a := range p.accts {
		name := a.acct.Name()
		if f := folderAt(i); f != "" {
			name += "/" + f // the folder on screen, named where its account is
		}
		n := p.unread[a.acct.Name()]
		badges[i] = accountbar.Badge{Name: name, Health: a.health, Unread: n.Unread, Inexact: !n.Exact, Focused: i == p.focus,
			Syncing: a.syncing}
	}
	return accountbar.Bar{Styles: styles, Badges: badges, Now: now}.View(width, 1)
}

// Header is the mode's screen's: what the view is and its keys; the
// prompt's while one asks.
func (m *Model) header(now time.Time) string {
	if m.ask.prompt != nil {
		return m.ask.prompt.Header() // the screen's keys are text meanwhile
	}
	return m.screenAt(now).Header()
}

// emptyText is what an empty list says: whether mail may still come.
func (p *accountPanes) emptyText() string {
	for _, a := range p.accts {
		if a.loading {
			return "Loading…"
		}
	}
	return "No messages."
}

// helpKeys are the bindings that mean something in the current mode: its
// screen's.
func (m *Model) helpKeys() help.KeyMap {
	if m.ask.prompt != nil {
		return *m.ask.prompt // every other key is text
	}
	return m.screenAt(m.env.Opts.Now())
}

// The smallest terminal the frame is laid out for.
const MinWidth, MinHeight = 40, 10

// tooSmall is the whole screen below MinWidth x MinHeight: one line that
// says so, cut to the width, instead of a frame that would wrap.
func (f *frame) tooSmall() string {
	if f.width <= 0 || f.height <= 0 {
		return "" // not sized yet
	}
	msg := fmt.Sprintf("Terminal too small: %dx%d < %dx%d", f.width, f.height, MinWidth, MinHeight)
	return textsafe.Fit(msg, f.width)
}
