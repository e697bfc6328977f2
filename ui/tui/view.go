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
	if m.width < MinWidth || m.height < MinHeight {
		return m.tooSmall()
	}
	now := m.opts.Now()
	var b strings.Builder
	b.WriteString(m.bar(now))
	b.WriteByte('\n')
	if m.filter.active {
		b.WriteString(textsafe.Fit(m.filter.input.View(), m.width))
	} else {
		// Account names may hold bidi controls and clusters terminals
		// disagree on (the config refuses only control characters).
		b.WriteString(m.styles.Header.Render(textsafe.Fit(textsafe.Line(m.header(now)), m.width)))
	}
	b.WriteByte('\n')
	switch m.mode {
	case modeMessage:
		b.WriteString(m.viewer.view())
	case modeDetails:
		a := m.accts[m.detailsFor]
		body := detailsView(m.styles, a.acct.Name(), a.health, m.detailsStderr, a.lastErr, m.width, m.list.height, now)
		b.WriteString(fitLines(body, m.list.height))
	case modePicker:
		b.WriteString(m.picker.view(m.width, m.list.height))
	default:
		b.WriteString(m.list.view(now, m.tags, m.tagW, m.emptyText(), m.selected))
	}
	b.WriteByte('\n')
	st := m.styles.Status
	if m.statusErr {
		st = m.styles.StatusError
	}
	b.WriteString(st.Render(textsafe.Fit(textsafe.Line(m.status), m.width)))
	b.WriteByte('\n')
	// bubbles/help can overflow by one item when its ellipsis does not fit:
	// cut every help line to the width, escape-sequence aware.
	lines := strings.Split(m.helpPage(), "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	b.WriteString(strings.Join(lines, "\n"))
	return b.String()
}

func (m *Model) bar(now time.Time) string {
	badges := make([]badgeData, len(m.accts))
	for i, a := range m.accts {
		badges[i] = badgeData{name: a.acct.Name(), health: a.health, unread: m.unread[a.acct.Name()], focused: i == m.focus}
	}
	return accountBar{styles: m.styles}.view(badges, m.width, now)
}

// header discloses partial results: "2 of 3 accounts · Yahoo: cooling
// down 42s"; with a focus it names the account. Degraded accounts are named
// before those still connecting, so a line cut at the width loses the
// least alarming first.
func (m *Model) header(now time.Time) string {
	if m.mode == modeDetails {
		return "account details · r refresh · esc back"
	}
	if m.mode == modeMessage {
		return "message · ↑/↓ scroll · esc back"
	}
	if m.mode == modePicker {
		return fmt.Sprintf("move %d message(s) · enter pick · esc cancel", len(m.pickRows))
	}
	ok := 0
	var why, starting []string
	for _, a := range m.accts {
		switch {
		case a.health.Connected():
			ok++
		case a.health.Degraded():
			why = append(why, a.acct.Name()+": "+a.health.Why(now))
		default:
			starting = append(starting, a.acct.Name()+": "+a.health.Why(now))
		}
	}
	why = append(why, starting...)
	var s string
	if m.focus >= 0 {
		a := m.accts[m.focus]
		s = fmt.Sprintf("%s · %d messages · a: all accounts", a.acct.Name(), len(m.list.rows))
		if !a.health.Connected() {
			s += " · " + a.health.Why(now)
		}
		return s
	}
	s = fmt.Sprintf("%d of %d accounts · %d messages", ok, len(m.accts), len(m.list.rows))
	if len(why) > 0 {
		s = fmt.Sprintf("%d of %d accounts · %s", ok, len(m.accts), strings.Join(why, " · "))
	}
	if q := m.filter.text(); q != "" {
		s += fmt.Sprintf(" · filter %q: %d shown (esc clears)", q, len(m.list.rows))
	}
	if n := len(m.selected); n > 0 {
		s += fmt.Sprintf(" · %d selected", n)
	}
	return s
}

func (m *Model) emptyText() string {
	for _, a := range m.accts {
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
	switch m.mode {
	case modeMessage:
		return modeHelp{m.keys.Back, m.keys.Down, m.keys.Up, m.keys.PageDown, m.keys.PageUp, m.keys.Help}
	case modeDetails:
		return modeHelp{m.keys.Back, m.keys.Refresh, m.keys.Help}
	case modePicker:
		return modeHelp{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "move here")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))}
	}
	return m.keys
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
	if m.width <= 0 || m.height <= 0 {
		return "" // not sized yet
	}
	msg := fmt.Sprintf("Terminal too small: %dx%d < %dx%d", m.width, m.height, MinWidth, MinHeight)
	return textsafe.Fit(msg, m.width)
}
