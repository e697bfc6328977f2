package teatest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/conn"
	"unibox/model"
	"unibox/ui/tui"
)

// A selection across three accounts is archived in one batch per account;
// one account is down: its messages come back, and the status line says
// what happened where.
func TestArchiveSelectionAcrossAccountsOneDown(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 4, time.Minute)...)
	home := newFake("Personal", connected, msgs("Personal", 4, 3*time.Minute)...)
	yahoo := newFake("Yahoo", connected, msgs("Yahoo", 4, 5*time.Minute)...)
	yahoo.applyErr = &conn.Error{Account: "Yahoo", Op: "connect", Class: conn.ClassUnavailable, Left: 41 * time.Second,
		Err: fmt.Errorf("%w", conn.ErrCoolingDown)}
	tm, _ := run(t, []tui.Account{work, home, yahoo}, 80, 24, nil)
	waitFor(t, tm, "3 of 3 accounts · 12 messages")
	for range 6 { // the six newest: 2 per account
		tm.Send(key(" "))
	}
	tm.Send(key("e"))
	waitFor(t, tm, "archived 4")
	screen := final(t, tm)
	if !strings.Contains(screen, "archived 4: Work 2, Personal 2; Yahoo: cooling down, 2 not archived") {
		t.Fatalf("outcome line:\n%s", screen)
	}
	if n := strings.Count(screen, " Yahoo ") - 1; n != 4 { // minus the badge
		t.Fatalf("Yahoo rows after the failed archive: %d, want all 4 back:\n%s", n, screen)
	}
	check(t, screen)
}

// The server refuses one message: it reappears, visibly.
func TestFailedArchiveRolledBack(t *testing.T) {
	m := msgs("Work", 3, time.Minute)
	work := newFake("Work", connected, m...)
	work.failUID = map[uint32]string{m[0].ID.UID: "NO [TRYCREATE] no such mailbox"}
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "3 messages")
	tm.Send(key("e"))
	waitFor(t, tm, "not archived")
	screen := final(t, tm)
	if !strings.Contains(screen, "Work: NO [TRYCREATE] no such mailbox, 1 not archived") || !strings.Contains(screen, "3 messages") {
		t.Fatalf("rollback not visible:\n%s", screen)
	}
	check(t, screen)
}

// z moves an archived message back by the uid the server reported.
func TestUndoArchive(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 3, time.Minute)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "3 messages")
	tm.Send(key("e"))
	waitFor(t, tm, "archived 1: Work 1")
	tm.Send(key("z"))
	waitFor(t, tm, "undone 1: Work 1")
	screen := final(t, tm)
	if !strings.Contains(screen, "3 messages") || !strings.Contains(screen, "Re: Atlas rollout plan") {
		t.Fatalf("undo did not bring it back:\n%s", screen)
	}
	work.mu.Lock()
	ops := fmt.Sprint(work.applied)
	work.mu.Unlock()
	if ops != "[{archive false } {move false INBOX}]" {
		t.Fatalf("calls %s: want an archive then a move back to INBOX", ops)
	}
	check(t, screen)
}

// The filter narrows as you type; the server search finds older mail.
func TestFilterAndServerSearch(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 10, time.Minute)...)
	work.older = []model.Message{{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 3},
		From: model.Address{Name: "Archivist", Address: "old@example.com"}, Subject: "Q3 report from last year", Date: now.Add(-400 * 24 * time.Hour)}}
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "10 messages")
	tm.Send(key("/"))
	for _, r := range "q3 report" {
		tm.Send(key(string(r)))
	}
	tm.Send(key("enter"))
	waitFor(t, tm, `filter "q3 report": 2 shown`)
	tm.Send(key("s"))
	tm.Send(key("enter")) // search the servers for the same text
	waitFor(t, tm, "1 more found")
	screen := final(t, tm)
	if !strings.Contains(screen, "Q3 report from last year") {
		t.Fatalf("server search result missing:\n%s", screen)
	}
	check(t, screen)
}

// esc after a server search (s) clears its text and its status line with
// it (issue 37, item 16): the line "search …: 1 more found" outlived it.
// Its hit goes too: a year-old row under the newest page would hide that
// everything between them is not loaded.
func TestEscClearsTheSearchLine(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 10, time.Minute)...)
	work.older = []model.Message{{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 3},
		From: model.Address{Name: "Archivist", Address: "old@example.com"}, Subject: "Q3 report from last year", Date: now.Add(-400 * 24 * time.Hour)}}
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "10 messages")
	tm.Send(key("s"))
	typeText(tm, "q3 report")
	tm.Send(key("enter"))
	waitFor(t, tm, `search "q3 report": 1 more found on the servers, 3 shown`)
	tm.Send(key("esc"))
	waitFor(t, tm, "1 of 1 account · 10 messages")
	if screen := final(t, tm); strings.Contains(screen, "search") {
		t.Fatalf("the search's line outlived esc:\n%s", screen)
	}
}

// New mail arrives on the periodic refresh and is marked N.
func TestNewMailOnRefresh(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 5, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) { o.RefreshInterval = 50 * time.Millisecond })
	waitFor(t, tm, "5 messages")
	work.mu.Lock()
	fresh := model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 500},
		From: model.Address{Name: "Priya Raman", Address: "priya@example.com"}, Subject: "Go/no-go moved to 10:00", Date: now.Add(-time.Minute)}
	work.page.Messages = append([]model.Message{fresh}, work.page.Messages...)
	work.mu.Unlock()
	waitFor(t, tm, "1 new in Work")
	screen := final(t, tm)
	if !strings.Contains(screen, " N   Work Priya Raman") {
		t.Fatalf("new mail not marked:\n%s", screen)
	}
	check(t, screen)
}

// Opening an unread message marks it read (an intent of its own), unless
// mark_read_on_open is off.
func TestOpenMarksRead(t *testing.T) {
	for _, markRead := range []bool{true, false} {
		t.Run(fmt.Sprint("mark_read_on_open=", markRead), func(t *testing.T) {
			m := msgs("Work", 3, time.Minute)
			m[0].Seen = false
			work := newFake("Work", connected, m...)
			work.body = model.Body{Message: m[0], Text: "hello"}
			tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) { o.MarkReadOnOpen = markRead })
			waitFor(t, tm, "3 messages")
			tm.Send(key("enter"))
			waitFor(t, tm, "hello")
			final(t, tm)
			work.mu.Lock()
			defer work.mu.Unlock()
			if got := len(work.applied) == 1; got != markRead {
				t.Fatalf("writes %v with mark_read_on_open=%v", work.applied, markRead)
			}
		})
	}
}

// m moves to a folder picked from the account's folder list.
func TestMoveWithPicker(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 3, time.Minute)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "3 messages")
	tm.Send(key("m"))
	waitFor(t, tm, "Projects/Atlas")
	tm.Send(key("/"))
	for _, r := range "atl" {
		tm.Send(key(string(r)))
	}
	tm.Send(key("enter"))
	waitFor(t, tm, "moved to Projects/Atlas 1: Work 1")
	final(t, tm)
}

// e in the message view archives the message shown; with [ui]
// after_action = "next" the next message in list order opens as enter
// would open it (marked read, as mark_read_on_open says), with "list"
// (the default) the list comes back.
func TestAfterActionInTheMessageView(t *testing.T) {
	for _, after := range []string{"next", "list"} {
		t.Run(after, func(t *testing.T) {
			m := msgs("Work", 3, time.Minute)
			m[1].Seen = false
			// The subjects read while the archive runs: the fake's page
			// shares m's array, and its Apply shifts it.
			first, second := m[0].Subject, m[1].Subject
			work := newFake("Work", connected, m...)
			tm, _ := run(t, []tui.Account{work}, 100, 24, func(o *tui.Options) { o.AfterAction, o.MarkReadOnOpen = after, true })
			waitFor(t, tm, "3 messages")
			tm.Send(key("enter"))
			waitFor(t, tm, "(the text of "+first+")")
			tm.Send(key("e"))
			if after == "next" {
				waitFor(t, tm, "(the text of "+second+")")
			} else {
				waitFor(t, tm, "2 messages")
			}
			final(t, tm)
			work.mu.Lock()
			defer work.mu.Unlock()
			want := []model.Action{model.ActArchive}
			if after == "next" {
				want = append(want, model.ActSetSeen)
			}
			var got []model.Action
			for _, op := range work.applied {
				got = append(got, op.Action)
			}
			slices.Sort(got) // the two writes run side by side
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("writes %v, want %v", got, want)
			}
		})
	}
}
