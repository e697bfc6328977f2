package tui

import (
	"fmt"
	"strings"
	"time"
	"unibox/ui/tui/screen"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The screens whose state and flows are still the root's: the list (with
// its folder and snooze flows), the message view and the review. Each is a row of the table over
// the root, so the table is the one place a mode is looked up; moving
// their flows into the screens is the next step (issue 36). The
// attachments' flow is the viewer's already (attach.go), U's the
// unsubscribe box's (unsubscribe.go), which both screens draw over, and
// the conversations' the thread view's (threads.go).

// listScreen is the list of the unified inbox, or of a folder.
type listScreen struct {
	m   *Model
	now time.Time
}

func newListScreen(m *Model, now time.Time) screen.Screen { return listScreen{m: m, now: now} }

func (s listScreen) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return s, nil
	}
	if cmd, ok := s.m.writeKey(k, false); ok {
		return s, cmd
	}
	if key.Matches(k, s.m.env.Keys.Unsubscribe) {
		r, ok := s.m.list.selected()
		if !ok || r.Thread != nil && !r.Member {
			s.m.frame.setStatus("unsubscribe: open the conversation and pick one message", true)
			return s, nil
		}
		return s, s.m.unsub.Start(r.ID)
	}
	return s, s.m.handleListKey(k)
}

func (s listScreen) View(width, height int) string {
	return s.m.unsub.Over(s.m.list.View(width, height), width)
}

func (s listScreen) ShortHelp() []key.Binding  { return s.m.list.ShortHelp() }
func (s listScreen) FullHelp() [][]key.Binding { return s.m.list.FullHelp() }

// Header discloses partial results: "2 of 3 accounts · Yahoo: cooling
// down 42s"; with a focus it names the account. Degraded accounts are named
// before those still connecting, so a line cut at the width loses the
// least alarming first.
func (s listScreen) Header() string {
	m, now := s.m, s.now
	k := m.env.Keys
	if m.folder.On {
		return s.folderHeader()
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
	var h string
	if m.panes.focus >= 0 {
		a := m.panes.accts[m.panes.focus]
		h = fmt.Sprintf("%s · %s · %s: all accounts", a.acct.Name(), s.counted(), screen.Hint(k.AllAccounts))
		if !a.health.Connected() {
			h += " · " + a.health.Words(now)
		}
		h += m.panes.toScreen(m.panes.focus, k) + m.reviewNote()
		if w := m.compose.Summary.Words(); w != "" {
			h += " · " + w
		}
		return h
	}
	h = fmt.Sprintf("%d of %s · %s", ok, screen.Count(len(m.panes.accts), "account"), s.counted())
	if len(why) > 0 {
		h = fmt.Sprintf("%d of %s · %s", ok, screen.Count(len(m.panes.accts), "account"), strings.Join(why, " · "))
	}
	if q := m.filter.text(); q != "" {
		h += fmt.Sprintf(" · %s %q: %d shown (%s clears)", m.filter.words(), q, len(m.list.rows), screen.Hint(k.Back))
	}
	if n := len(m.triage.selected); n > 0 {
		h += fmt.Sprintf(" · %d selected", n)
	}
	h += m.panes.toScreen(-1, k) + m.reviewNote()
	if w := m.compose.Summary.Words(); w != "" {
		h += " · " + w
	}
	return h
}

// counted is what the list shows, counted: "12 messages", or in the
// thread view "5 conversations · 12 messages" ("1 message" for one).
func (s listScreen) counted() string {
	m := s.m
	if !m.threads.On {
		return screen.Count(len(m.list.rows), "message")
	}
	convs, msgs := 0, 0
	for _, r := range m.list.rows {
		if r.Thread != nil && !r.Member {
			convs++
			msgs += r.Thread.Count
		}
	}
	return screen.Count(convs, "conversation") + " · " + screen.Count(msgs, "message")
}

// messageScreen is the message view: the viewer, its attachments, the
// triage keys on the message and stepping through its thread.
type messageScreen struct{ m *Model }

func newMessageScreen(m *Model, _ time.Time) screen.Screen { return messageScreen{m: m} }

func (s messageScreen) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	m := s.m
	k, ok := msg.(tea.KeyMsg)
	if _, gone := msg.(screen.GoneMsg); gone {
		return s, m.closeMessage()
	}
	if !ok {
		var cmd tea.Cmd
		m.viewer, cmd = m.viewer.Update(msg)
		return s, cmd
	}
	if cmd, ok := m.writeKey(k, true); ok {
		return s, cmd
	}
	if key.Matches(k, m.env.Keys.Unsubscribe) {
		return s, m.unsub.Start(m.viewer.Showing())
	}
	if key.Matches(k, m.env.Keys.Invitation) {
		m.openAnswer()
		return s, nil
	}
	if cmd, ok := m.viewer.AttachKey(k); ok {
		return s, cmd
	}
	switch {
	case key.Matches(k, m.env.Keys.Back, m.env.Keys.Quit):
		return s, m.closeMessage()
	case key.Matches(k, m.env.Keys.NextInThread):
		m.threads.Step(m.viewer.Showing(), 1)
		return s, nil
	case key.Matches(k, m.env.Keys.PrevInThread):
		m.threads.Step(m.viewer.Showing(), -1)
		return s, nil
	}
	if cmd := m.handleActionKey(k, true); cmd != nil {
		return s, cmd
	}
	var cmd tea.Cmd
	m.viewer, cmd = m.viewer.Update(k)
	return s, cmd
}

// closeMessage leaves the message view: for the screener when it was
// opened from there (what waits is read again: the message may have
// been decided on or moved), else for the list.
func (m *Model) closeMessage() tea.Cmd {
	if v := m.behind; v != nil {
		m.behind = nil
		m.show(modeScreener, *v)
		return v.Load()
	}
	m.setMode(modeList)
	return nil
}

func (s messageScreen) View(width, height int) string {
	return s.m.unsub.Over(s.m.viewer.View(width, height), width)
}
func (s messageScreen) Header() string            { return s.m.viewer.Header() }
func (s messageScreen) ShortHelp() []key.Binding  { return s.m.viewer.ShortHelp() }
func (s messageScreen) FullHelp() [][]key.Binding { return s.m.viewer.FullHelp() }

// reviewScreen is the review of a message written: the composer, whose
// flow runs on the compose messages wherever they arrive (composed), and
// which tells the root when its review is up or ended (reviewingMsg).
type reviewScreen struct{ m *Model }

func newReviewScreen(m *Model, _ time.Time) screen.Screen { return reviewScreen{m: m} }

func (s reviewScreen) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		return s, s.m.composed(k)
	}
	return s, nil
}
func (s reviewScreen) View(width, height int) string { return s.m.compose.View(width, height) }
func (s reviewScreen) Header() string                { return s.m.compose.Header() }
func (s reviewScreen) ShortHelp() []key.Binding      { return s.m.compose.ShortHelp() }
func (s reviewScreen) FullHelp() [][]key.Binding     { return s.m.compose.FullHelp() }

// Typing: the attach prompt has the keyboard (screen.Typing).
func (s reviewScreen) Typing() bool { return s.m.compose.Prompting() }

// reviewNote is the header's " · 2 rules to review (P)", "" for none.
func (m *Model) reviewNote() string {
	switch m.toReview {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" · 1 rule to review (%s)", screen.Hint(m.env.Keys.Proposals))
	}
	return fmt.Sprintf(" · %d rules to review (%s)", m.toReview, screen.Hint(m.env.Keys.Proposals))
}
