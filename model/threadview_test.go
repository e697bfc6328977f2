package model

import (
	"testing"
	"time"
)

// ThreadRows: one row per conversation where its newest message stood,
// counting, marking and naming across accounts; an expanded one is
// followed by its messages oldest first; an unthreaded message stands
// alone; the inbox's rows are never changed.
func TestThreadRows(t *testing.T) {
	at := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	row := func(acct string, uid uint32, thread, from string, seen, flagged bool, ago time.Duration) Row {
		return Row{Message: Message{ID: MessageID{Account: acct, Folder: "INBOX", UIDValidity: 1, UID: uid}, ThreadID: thread,
			From: Address{Name: from}, Subject: "s", Date: at.Add(-ago), Seen: seen, Flagged: flagged}}
	}
	rows := []Row{ // newest first
		row("Work", 4, "t1", "Carol", false, false, 1*time.Minute),
		row("Work", 3, "", "Dan", true, false, 2*time.Minute),
		row("Home", 9, "t1", "bob", true, true, 3*time.Minute),
		row("Work", 2, "t1", "Bob", true, false, 4*time.Minute),
		row("Work", 1, "t2", "Eve", true, false, 5*time.Minute),
	}
	got := ThreadRows(rows, nil, nil)
	if len(got) != 3 || got[0].ID.UID != 4 || got[1].ID.UID != 3 || got[2].ID.UID != 1 {
		t.Fatalf("rows %v", uids(got))
	}
	c := got[0].Thread
	if c.Count != 3 || c.Unread != 1 || !c.Flagged || !c.Multi() || len(c.People) != 2 || c.People[0] != "Bob" || c.People[1] != "Carol" ||
		c.Members[0].UID != 2 || c.Members[2].UID != 4 || c.Expanded {
		t.Fatalf("conversation %+v", c)
	}
	if got[1].Thread.Count != 1 || got[1].Thread.Multi() || got[1].Member {
		t.Fatalf("unthreaded %+v", got[1].Thread)
	}
	sent := row("Work", 50, "t1", "Sam", true, false, 150*time.Second)
	sent.ID.Folder = "Sent"
	open := ThreadRows(rows, map[string]bool{"t1": true, "t2": true}, map[string][]Row{"t1": {sent, rows[0]}})
	if want := []uint32{4, 2, 9, 50, 4, 3, 1}; !equalUIDs(open, want) { // Sent among them by date, once each; t2 has one message
		t.Fatalf("expanded %v, want %v", uids(open), want)
	}
	if open[0].Thread.Count != 3 || len(open[0].Thread.Members) != 3 {
		t.Fatalf("the conversation counts the Sent reply it only shows: %+v", open[0].Thread)
	}
	if want := []uint32{4, 2, 9, 50, 4, 3, 1}; !equalUIDs(open, want) {
		t.Fatalf("expanded %v, want %v", uids(open), want)
	}
	if open[0].Member || !open[1].Member || !open[3].Member || !open[4].Member || open[5].Member || !open[0].Thread.Expanded {
		t.Fatalf("members marked wrong: %+v", open)
	}
	if rows[0].Thread != nil {
		t.Fatal("ThreadRows changed the inbox's rows")
	}
}

func uids(rows []Row) []uint32 {
	var out []uint32
	for _, r := range rows {
		out = append(out, r.ID.UID)
	}
	return out
}

func equalUIDs(rows []Row, want []uint32) bool {
	got := uids(rows)
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}
