package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"unibox/model/textsafe"
)

// View draws bar, header, body, status line and help; every region has a
// fixed height so rows arriving or leaving never move the layout.
func (m *Model) View() string {
	if m.frame.width < MinWidth || m.frame.height < MinHeight {
		return m.tooSmall()
	}
	now := m.env.opts.Now()
	var b strings.Builder
	b.WriteString(m.bar(now))
	b.WriteByte('\n')
	if m.filter.active {
		b.WriteString(textsafe.Fit(m.filter.input.View(), m.frame.width))
	} else {
		// Account names may hold bidi controls and clusters terminals
		// disagree on (the config refuses only control characters).
		b.WriteString(m.env.styles.Header.Render(textsafe.Fit(textsafe.Line(m.header(now)), m.frame.width)))
	}
	b.WriteByte('\n')
	switch m.frame.mode {
	case modeMessage:
		b.WriteString(m.viewer.view())
	case modeDetails:
		body := m.details.view(m.env.styles, m.panes.accts[m.details.account], m.notify.failure, m.frame.width, m.list.height, now)
		b.WriteString(fitLines(body, m.list.height))
	case modePicker:
		b.WriteString(m.pick.p.view(m.frame.width, m.list.height))
	default:
		b.WriteString(m.list.view(now, m.panes.tags, m.panes.tagW, m.emptyText(), m.triage.selected))
	}
	b.WriteByte('\n')
	st := m.env.styles.Status
	if m.frame.statusErr {
		st = m.env.styles.StatusError
	}
	b.WriteString(st.Render(textsafe.Fit(textsafe.Line(m.frame.status), m.frame.width)))
	b.WriteByte('\n')
	// bubbles/help can overflow by one item when its ellipsis does not fit:
	// cut every help line to the width, escape-sequence aware.
	lines := strings.Split(m.helpPage(), "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.frame.width, "…")
	}
	b.WriteString(strings.Join(lines, "\n"))
	return b.String()
}

func (m *Model) bar(now time.Time) string {
	badges := make([]badgeData, len(m.panes.accts))
	for i, a := range m.panes.accts {
		badges[i] = badgeData{name: a.acct.Name(), health: a.health, unread: m.panes.unread[a.acct.Name()], focused: i == m.panes.focus,
			syncing: a.syncing}
	}
	return accountBar{styles: m.env.styles}.view(badges, m.frame.width, now)
}

// header discloses partial results: "2 of 3 accounts · Yahoo: cooling
// down 42s"; with a focus it names the account. Degraded accounts are named
// before those still connecting, so a line cut at the width loses the
// least alarming first.
func (m *Model) header(now time.Time) string {
	if m.frame.mode == modeDetails {
		return "account details · r refresh · esc back"
	}
	if m.frame.mode == modeMessage {
		return "message · ↑/↓ scroll · esc back"
	}
	if m.frame.mode == modePicker {
		return fmt.Sprintf("move %d message(s) · enter pick · esc cancel", len(m.pick.rows))
	}
	ok := 0
	var why, starting []string
	for _, a := range m.panes.accts {
		switch {
		case a.health.Connected():
			ok++
		case a.health.Degraded():
			why = append(why, a.acct.Name()+": "+a.health.Words(now))
		default:
			starting = append(starting, a.acct.Name()+": "+a.health.Words(now))
		}
	}
	why = append(why, starting...)
	var s string
	if m.panes.focus >= 0 {
		a := m.panes.accts[m.panes.focus]
		s = fmt.Sprintf("%s · %d messages · a: all accounts", a.acct.Name(), len(m.list.rows))
		if !a.health.Connected() {
			s += " · " + a.health.Words(now)
		}
		return s
	}
	s = fmt.Sprintf("%d of %d accounts · %d messages", ok, len(m.panes.accts), len(m.list.rows))
	if len(why) > 0 {
		s = fmt.Sprintf("%d of %d accounts · %s", ok, len(m.panes.accts), strings.Join(why, " · "))
	}
	if q := m.filter.text(); q != "" {
		s += fmt.Sprintf(" · filter %q: %d shown (esc clears)", q, len(m.list.rows))
	}
	if n := len(m.triage.selected); n > 0 {
		s += fmt.Sprintf(" · %d selected", n)
	}
	return s
}

func (m *Model) emptyText() string {
	for _, a := range m.panes.accts {
		if a.loading {
			return "Loading…"
		}
	}
	return "No messages."
}

// fitLines pads or cuts s to exactly n lines.
func fitLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// helpKeys are the bindings that mean something in the current mode.
func (m *Model) helpKeys() help.KeyMap {
	switch m.frame.mode {
	case modeMessage:
		return modeHelp{m.env.keys.Back, m.env.keys.Down, m.env.keys.Up, m.env.keys.PageDown, m.env.keys.PageUp, m.env.keys.Help}
	case modeDetails:
		return modeHelp{m.env.keys.Back, m.env.keys.Refresh, m.env.keys.Help}
	case modePicker:
		return modeHelp{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "move here")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))}
	}
	return m.env.keys
}

// modeHelp is a flat keymap for a mode with few keys.
type modeHelp []key.Binding

func (h modeHelp) ShortHelp() []key.Binding  { return h }
func (h modeHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h} }

// The smallest terminal the frame is laid out for.
const MinWidth, MinHeight = 40, 10

// tooSmall is the whole screen below MinWidth x MinHeight: one line that
// says so, cut to the width, instead of a frame that would wrap.
func (m *Model) tooSmall() string {
	if m.frame.width <= 0 || m.frame.height <= 0 {
		return "" // not sized yet
	}
	msg := fmt.Sprintf("Terminal too small: %dx%d < %dx%d", m.frame.width, m.frame.height, MinWidth, MinHeight)
	return textsafe.Fit(msg, m.frame.width)
}
