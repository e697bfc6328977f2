package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/notify"
	"unibox/ui/tui/unsub"
)

// The composer tells the root what the status line should say and which
// row a sent reply marks, as messages routed right after its update: the
// root reads none of its fields back. Each case is one message through
// the root's composed, from a clean status line.
func TestComposerTellsTheRoot(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		waiting bool // a reply waits out its send_delay
		msg     any
		status  string
		bad     bool
		marked  bool // the row it answers is marked answered
	}{
		{"compose failed", false, compose.ComposeReadyMsg{Err: errors.New("no drafts dir")}, "no drafts dir", true, false},
		{"undo too late", false, compose.CancelledMsg{Err: errors.New("gone")}, "too late to take it back: gone", true, false},
		{"postponed", false, compose.ShelvedMsg{Verb: "postponed"}, "draft postponed", false, false},
		{"a reply went", true, compose.OutboxMsg{}, "sent: Re: hello", false, true},
		{"nothing to say", false, compose.OutboxMsg{}, "before", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRebound(t)
			row, _ := r.list.selected()
			r.frame.setStatus("before", false)
			if tc.waiting {
				o := outbox.Ref{Account: row.ID.Account, Folder: row.ID.Folder, UIDValidity: row.ID.UIDValidity, UID: row.ID.UID}
				r.compose.Waiting = &compose.WaitingSend{Subject: "Re: hello",
					Entry: outbox.Entry{ID: "e1", SendAt: now.Add(-time.Second), Original: &o, Flag: "answered"}}
			}
			r.composed(tc.msg)
			if r.frame.status != tc.status || r.frame.statusErr != tc.bad || len(r.env.Said) != 0 {
				t.Errorf("status %q (bad %v, %d unheard), want %q (bad %v)", r.frame.status, r.frame.statusErr, len(r.env.Said), tc.status, tc.bad)
			}
			if got, _ := r.inbox.Find(row.ID); got.Answered != tc.marked {
				t.Errorf("the answered row is marked %v, want %v", got.Answered, tc.marked)
			}
		})
	}
}

// The archive offer after an unsubscribe is answered on the screen it
// waits on: y archives the sender's mail, and in the message view (whose
// message is among it) the view ends onto the list by a goneMsg; any
// other key leaves both the mail and the screen.
func TestArchiveOfferEndsTheMessageView(t *testing.T) {
	for _, tc := range []struct {
		name      string
		inMessage bool
		answer    string
		want      mode
	}{
		{"y in the message view", true, "y", modeList},
		{"n in the message view", true, "n", modeMessage},
		{"y in the list", false, "y", modeList},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRebound(t)
			row, _ := r.list.selected()
			if tc.inMessage {
				r.press("open")
			}
			r.unsub.Archive = &unsub.ArchiveOffer{Sender: "a@example.com", Rows: []model.Row{row}}
			cmd := r.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(tc.answer)})
			if r.frame.mode != tc.want || (cmd != nil) != (tc.answer == "y") {
				t.Errorf("mode %s (cmd %v), want %s", r.frame.mode, cmd != nil, tc.want)
			}
		})
	}
}

// The notifier tells the root how its last run ended, as messages: a
// failure sets the status line and reaches the details, open or opened
// later; a success clears the details' failure and leaves the status line.
func TestNotifierTellsTheRoot(t *testing.T) {
	const failed = "notify_cmd: last run failed: exit status 3"
	for _, tc := range []struct {
		name       string
		openBefore bool // the details are open when the run ends
		err        error
		status     string
		bad        bool
		shown      bool // the details show the failure
	}{
		{"failed, details opened after", false, errors.New("exit status 3"), "notify_cmd: exit status 3", true, true},
		{"failed, details open", true, errors.New("exit status 3"), "notify_cmd: exit status 3", true, true},
		{"succeeded after a failure", true, nil, "before", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRebound(t)
			r.Update(notify.RanMsg{Err: errors.New("exit status 9")}) // an earlier failure
			if tc.openBefore {
				r.press("details")
			}
			r.frame.setStatus("before", false)
			r.Update(notify.RanMsg{Err: tc.err})
			if !strings.HasPrefix(r.frame.status, tc.status) || r.frame.statusErr != tc.bad || len(r.env.Said) != 0 {
				t.Errorf("status %q (bad %v, %d unheard), want %q… (bad %v)", r.frame.status, r.frame.statusErr, len(r.env.Said), tc.status, tc.bad)
			}
			if !tc.openBefore {
				r.press("details")
			}
			if r.frame.mode != modeDetails {
				t.Fatalf("the details are not open: %s", r.frame.mode)
			}
			if v := r.View(); strings.Contains(v, failed) != tc.shown || strings.Contains(v, "exit status 9") {
				t.Errorf("the details show the failure %v, want %v:\n%s", !tc.shown, tc.shown, v)
			}
		})
	}
}

// The composer tells the root when its review screen is up and when it
// ends (reviewingMsg): the root switches the mode on that message and
// reads no field of the composer back.
func TestComposerTellsTheReview(t *testing.T) {
	for _, tc := range []struct {
		name      string
		reviewing bool // the review screen is up before
		msg       tea.Msg
		want      mode
	}{
		{"the editor's text comes back", false, compose.ReviewMsg{DraftID: "d1"}, modeReview},
		{"an answer for another draft", false, compose.ReviewMsg{DraftID: "d0"}, modeList},
		{"the marks while it is up", true, compose.MarksMsg{DraftID: "d1"}, modeReview},
		{"queued", true, compose.QueuedMsg{}, modeList},
		{"postponed", true, compose.ShelvedMsg{Verb: "postponed"}, modeList},
		{"postponing failed", true, compose.ShelvedMsg{Err: errors.New("disk full")}, modeReview},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRebound(t)
			r.compose.Draft.ID = "d1"
			if tc.reviewing {
				r.composed(compose.ReviewMsg{DraftID: "d1"})
			}
			r.composed(tc.msg)
			if r.frame.mode != tc.want || len(r.env.Said) != 0 {
				t.Errorf("mode %s (%d unheard), want %s", r.frame.mode, len(r.env.Said), tc.want)
			}
		})
	}
}
