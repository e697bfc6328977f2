package notify

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
)

// A run's window is a timer: a burst inside it waits for its end, however
// the clock of the screen is set (golden tests fix it), and the timer ends
// with the UI.
func TestNotifyWindowIsATimer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	row := func(uid uint32) model.Row {
		return model.Row{Message: model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uid},
			Subject: "new"}, Fresh: true}
	}
	const window = 200 * time.Millisecond
	n := New(ctx, func(...tea.Msg) {}, []string{"true"}, "", window, 10*time.Second)
	n, cmd := n.Arrived([]model.Row{row(1)})
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 || !n.running {
		t.Fatalf("the first arrival did not start a run and its window: %T %v", cmd(), n.running)
	}
	run, windowCmd := batch[0], batch[1]
	start := time.Now()
	if n, cmd = n.Update(run()); cmd != nil || n.running {
		t.Fatal("the run's end started another with nothing pending")
	}
	if n, cmd = n.Arrived([]model.Row{row(1), row(2)}); cmd != nil || len(n.pending) != 1 {
		t.Fatalf("a second burst inside the window ran at once (pending %d)", len(n.pending))
	}
	msg := windowCmd()
	if _, ok := msg.(FlushMsg); !ok || time.Since(start) < window {
		t.Fatalf("the window ended with %T after %s", msg, time.Since(start))
	}
	if n, cmd = n.Update(msg); cmd == nil || !n.running || len(n.pending) != 0 {
		t.Fatal("the window's end did not run what it held back")
	}
	cancel()
	if msg := cmd().(tea.BatchMsg)[1](); msg != nil {
		t.Fatalf("a window outlived the UI: %T", msg)
	}
}

// What a rule with notify = false matched is never notified; the rest of
// the burst is.
func TestNotifyLeavesOutQuietMail(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	row := func(uid uint32, from string) model.Row {
		return model.Row{Message: model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uid},
			From: model.Address{Address: from}, Subject: "new"}, Fresh: true}
	}
	quiet := func(m model.Message) bool { return m.From.Address == "news@lists.example" }
	n := New(ctx, func(...tea.Msg) {}, []string{"true"}, "", time.Hour, 10*time.Second).Quieting(quiet)
	n, cmd := n.Arrived([]model.Row{row(1, "news@lists.example")})
	if cmd != nil || n.running || len(n.pending) != 0 {
		t.Fatalf("quiet mail was notified: running %v, pending %d", n.running, len(n.pending))
	}
	n, cmd = n.Arrived([]model.Row{row(1, "news@lists.example"), row(2, "boss@work.example")})
	if cmd == nil || !n.running {
		t.Fatal("the mail no quiet rule matched was not notified")
	}
}
