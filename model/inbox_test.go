package model

import (
	"fmt"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func msg(acct string, uid uint32, age time.Duration, seen bool) Message {
	return Message{ID: MessageID{acct, "INBOX", 7, uid}, Subject: fmt.Sprintf("%s %d", acct, uid),
		From: Address{"Ann", "ann@x.org"}, Date: t0.Add(-age), Seen: seen}
}

func subjects(rows []Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Subject)
	}
	return out
}

func TestInboxMergesNewestFirst(t *testing.T) {
	in := NewInbox([]string{"Work", "Home"})
	in.Replace("Work", []Message{msg("Work", 1, 3*time.Hour, true), msg("Work", 2, time.Hour, false)}, false)
	in.Replace("Home", []Message{msg("Home", 9, 2*time.Hour, false)}, true)
	got := fmt.Sprint(subjects(in.Rows()))
	if want := "[Work 2 Home 9 Work 1]"; got != want {
		t.Fatalf("merged %s, want %s", got, want)
	}
	if in.Unread("Work") != 1 || in.Unread("Home") != 1 || !in.More("Home") || in.More("Work") {
		t.Fatal("counts or paging flags wrong")
	}
}

func TestInboxStaleRowsStayVisible(t *testing.T) {
	in := NewInbox([]string{"Work", "Yahoo"})
	in.Replace("Work", []Message{msg("Work", 1, time.Hour, true)}, false)
	in.Replace("Yahoo", []Message{msg("Yahoo", 1, 2*time.Hour, true)}, false)
	in.SetStale("Yahoo", true)
	rows := in.Rows()
	if len(rows) != 2 || rows[0].Stale || !rows[1].Stale {
		t.Fatalf("stale marking: %+v", rows)
	}
	in.SetStale("Yahoo", false)
	if in.Rows()[1].Stale {
		t.Fatal("stale mark not cleared")
	}
}

func TestInboxFreshOnRefreshKeepsOlderPages(t *testing.T) {
	in := NewInbox([]string{"Work"})
	in.Replace("Work", []Message{msg("Work", 10, time.Hour, true), msg("Work", 9, 2*time.Hour, true)}, true)
	in.AppendOlder("Work", []Message{msg("Work", 8, 3*time.Hour, true)}, false, 9)
	// New mail arrives: the newest page now starts at uid 11.
	n := in.Replace("Work", []Message{msg("Work", 11, 0, false), msg("Work", 10, time.Hour, true)}, true)
	if n != 1 {
		t.Fatalf("fresh = %d, want 1", n)
	}
	rows := in.Rows()
	if got := fmt.Sprint(subjects(rows)); got != "[Work 11 Work 10 Work 9 Work 8]" {
		t.Fatalf("after refresh: %s", got)
	}
	if !rows[0].Fresh || rows[1].Fresh {
		t.Fatal("fresh marks wrong")
	}
	if in.More("Work") {
		t.Fatal("paging state lost: older pages were complete")
	}
	// Read it: no longer fresh on the next refresh.
	in.Update(rows[0].ID, func(m *Message) { m.Seen = true })
	in.Replace("Work", []Message{msg("Work", 11, 0, true), msg("Work", 10, time.Hour, true)}, true)
	if in.Rows()[0].Fresh {
		t.Fatal("a read message stayed fresh")
	}
}

func TestInboxFirstLoadIsNotFresh(t *testing.T) {
	in := NewInbox([]string{"Work"})
	if n := in.Replace("Work", []Message{msg("Work", 1, 0, false)}, false); n != 0 || in.Rows()[0].Fresh {
		t.Fatal("the first load marked mail as new")
	}
}

func TestInboxRemoveInsert(t *testing.T) {
	in := NewInbox([]string{"Work"})
	in.Replace("Work", []Message{msg("Work", 2, time.Hour, true), msg("Work", 1, 2*time.Hour, true)}, false)
	m, ok := in.Remove(MessageID{"Work", "INBOX", 7, 2})
	if !ok || in.Len() != 1 {
		t.Fatal("remove")
	}
	in.Insert(m)
	in.Insert(m)
	if got := fmt.Sprint(subjects(in.Rows())); got != "[Work 2 Work 1]" {
		t.Fatalf("insert: %s", got)
	}
}

func TestMatch(t *testing.T) {
	r := Row{Message: Message{Subject: "Quarterly Report", From: Address{"Zoë Müller", "zoe@x.org"}}}
	for q, want := range map[string]bool{"": true, "report": true, "zoë": true, "ZOE@": true, "lunch": false} {
		if Match(r, q) != want {
			t.Errorf("Match(%q) = %v", q, !want)
		}
	}
}

// Rows restored from the local store show at once, stale until the first
// listing replaces them; what that listing brings unread is fresh (new
// since last time); a restore that arrives after the listing is ignored.
func TestInboxRestoreFromStore(t *testing.T) {
	in := NewInbox([]string{"A", "B"})
	stored := []Message{msg("A", 3, time.Hour, true), msg("A", 2, 2*time.Hour, false), msg("A", 1, 3*time.Hour, true)}
	if !in.Restore("A", stored, true) {
		t.Fatal("restore refused before any listing")
	}
	for _, r := range in.Rows() {
		if !r.Stale {
			t.Fatalf("restored row %d not stale", r.ID.UID)
		}
	}
	if in.More("A") != true || in.PageFloor("A") != 1 {
		t.Fatalf("more %v floor %d", in.More("A"), in.PageFloor("A"))
	}
	// The server: uid 1 was expunged elsewhere, uid 4 arrived unread.
	fresh := in.Replace("A", []Message{msg("A", 4, time.Minute, false), msg("A", 3, time.Hour, true), msg("A", 2, 2*time.Hour, false)}, false)
	if fresh != 1 {
		t.Fatalf("fresh %d, want 1 (uid 4)", fresh)
	}
	got := in.Rows()
	if len(got) != 3 || got[0].ID.UID != 4 || !got[0].Fresh || got[0].Stale || got[2].ID.UID != 2 {
		t.Fatalf("after the listing: %+v", got)
	}
	if in.Restore("A", stored, true) {
		t.Fatal("a restore after the listing replaced its rows")
	}
}

// Rows a filter found in the store are stale until the server shows them
// (a search or an older page), and then they are confirmed in place:
// never a second row.
func TestInboxStoredRowsConfirmedWithoutDuplicates(t *testing.T) {
	for _, tt := range []struct {
		name    string
		confirm func(in *Inbox, m Message)
	}{
		{"server search", func(in *Inbox, m Message) { in.AddFound("A", []Message{m}) }},
		{"older page", func(in *Inbox, m Message) { in.AppendOlder("A", []Message{m}, false, 10) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := NewInbox([]string{"A"})
			in.Replace("A", []Message{msg("A", 10, time.Hour, true)}, true)
			old := msg("A", 2, 90*24*time.Hour, false)
			if n := in.AddStored("A", []Message{old, msg("A", 10, time.Hour, true)}); n != 1 {
				t.Fatalf("added %d, want 1 (uid 10 is loaded already)", n)
			}
			if r, _ := in.Find(old.ID); len(in.Rows()) != 2 || !in.Rows()[1].Stale || r.Seen {
				t.Fatalf("stored row: %+v", in.Rows())
			}
			onServer := old
			onServer.Seen = true // read elsewhere since it was stored
			tt.confirm(in, onServer)
			rows := in.Rows()
			if len(rows) != 2 || rows[1].Stale || !rows[1].Seen {
				t.Fatalf("after the server showed it: %+v", rows)
			}
		})
	}
}

// A server's older page speaks for its uid range: stored rows in it that
// it lacks are gone (expunged since), stored rows below it stay stale.
func TestInboxServerPageDropsWhatTheStoreStillHad(t *testing.T) {
	in := NewInbox([]string{"A"})
	in.Replace("A", []Message{msg("A", 10, time.Hour, true)}, true)
	in.AppendStoredOlder("A", []Message{msg("A", 9, 2*time.Hour, true), msg("A", 8, 3*time.Hour, true), msg("A", 3, 9*time.Hour, true)}, true)
	// The server, below 10: uid 9 and 7 (8 was expunged elsewhere), more below.
	in.AppendOlder("A", []Message{msg("A", 9, 2*time.Hour, true), msg("A", 7, 4*time.Hour, true)}, true, 10)
	var got []string
	for _, r := range in.Rows() {
		got = append(got, fmt.Sprintf("%d%v", r.ID.UID, map[bool]string{true: "~", false: ""}[r.Stale]))
	}
	if want := "[10 9 7 3~]"; fmt.Sprint(got) != want {
		t.Fatalf("rows %v, want %s", got, want)
	}
}

// Paging may outrun the first listing after a restore: the older rows the
// server gave meanwhile stay when that listing comes; the stored rows it
// has not confirmed go.
func TestInboxFirstListingAfterRestoreKeepsServerPages(t *testing.T) {
	in := NewInbox([]string{"A"})
	in.Restore("A", []Message{msg("A", 20, time.Hour, true), msg("A", 19, 2*time.Hour, true)}, true)
	in.AppendStoredOlder("A", []Message{msg("A", 18, 3*time.Hour, true), msg("A", 5, 9*time.Hour, true)}, true)
	in.AppendOlder("A", []Message{msg("A", 18, 3*time.Hour, true), msg("A", 17, 4*time.Hour, true)}, true, 19)
	in.Replace("A", []Message{msg("A", 21, 0, false), msg("A", 20, time.Hour, true), msg("A", 19, 2*time.Hour, true)}, true)
	var got []string
	for _, r := range in.Rows() {
		got = append(got, fmt.Sprintf("%d%v", r.ID.UID, map[bool]string{true: "~", false: ""}[r.Stale]))
	}
	if want := "[21 20 19 18 17]"; fmt.Sprint(got) != want {
		t.Fatalf("rows %v, want %s", got, want)
	}
	if in.PageFloor("A") != 17 || !in.More("A") {
		t.Fatalf("paging goes on below %d (more %v), want 17", in.PageFloor("A"), in.More("A"))
	}
}

// A search's hits outlive the listings that come while it lasts (a
// refresh or a push must not take a found Archive row off the screen)
// and go with it: DropFound leaves only what listings showed. A hit in
// the listed folder within the page's range that the page lacks is gone
// (expunged), and one an older page lists becomes the folder's own.
func TestInboxSearchHitsLastAsLongAsTheSearch(t *testing.T) {
	archived := func(uid uint32, age time.Duration) Message {
		m := msg("A", uid, age, true)
		m.ID.Folder = "Archive"
		return m
	}
	in := NewInbox([]string{"A"})
	in.Replace("A", []Message{msg("A", 10, time.Hour, true), msg("A", 9, 2*time.Hour, true)}, true)
	in.AddSearched("A", []Message{archived(3, 90*time.Hour), msg("A", 5, 50*time.Hour, true), msg("A", 95, 0, true)})
	in.AddFound("A", []Message{archived(1, 900*time.Hour)})
	in.Replace("A", []Message{msg("A", 11, 0, false), msg("A", 10, time.Hour, true), msg("A", 9, 2*time.Hour, true)}, true)
	rowsOf := func() string {
		var got []string
		for _, r := range in.Rows() {
			got = append(got, fmt.Sprintf("%s/%d", r.ID.Folder, r.ID.UID))
		}
		return fmt.Sprint(got)
	}
	if got, want := rowsOf(), "[INBOX/11 INBOX/10 INBOX/9 INBOX/5 Archive/3 Archive/1]"; got != want {
		t.Fatalf("after a listing during the search: %s, want %s", got, want)
	}
	if in.PageFloor("A") != 9 {
		t.Fatalf("paging goes on below %d, want 9: a hit is no page", in.PageFloor("A"))
	}
	in.AppendOlder("A", []Message{msg("A", 5, 50*time.Hour, true)}, true, 9)
	if !in.DropFound() {
		t.Fatal("DropFound dropped nothing")
	}
	if got, want := rowsOf(), "[INBOX/11 INBOX/10 INBOX/9 INBOX/5]"; got != want {
		t.Fatalf("after the search: %s, want %s", got, want)
	}
	if in.DropFound() {
		t.Fatal("a second DropFound dropped something")
	}
}

// A longer page after a short one (a first screen's step, then the page
// size) brings older rows the account had all along: none of them is new
// mail. A row above the rows loaded, unread, is.
func TestInboxOlderRowsOfALongerPageAreNotNew(t *testing.T) {
	in := NewInbox([]string{"Work"})
	page := func(lo, hi uint32) []Message {
		var out []Message
		for uid := hi; uid >= lo; uid-- {
			out = append(out, msg("Work", uid, time.Duration(100-uid)*time.Minute, false))
		}
		return out
	}
	in.Replace("Work", page(81, 100), true) // the first screen: 20 rows
	if n := in.Replace("Work", page(61, 100), true); n != 0 {
		t.Fatalf("the full page after the first screen: %d new, want none", n)
	}
	if n := in.Replace("Work", page(62, 101), true); n != 1 {
		t.Fatalf("one message above the page: %d new, want 1", n)
	}
}

// Mail waiting in the screener is not the inbox's: no row, no unread, not
// new; let in, it shows.
func TestInboxLeavesOutScreenedMail(t *testing.T) {
	in := NewInbox([]string{"Work"})
	in.Replace("Work", []Message{msg("Work", 1, time.Hour, true)}, false)
	held := msg("Work", 2, 0, false)
	held.Screened = ScreenNew
	forged := msg("Work", 3, 0, false)
	forged.Screened = ScreenForged
	if n := in.Replace("Work", []Message{forged, held, msg("Work", 1, time.Hour, true)}, false); n != 0 {
		t.Fatalf("%d new: screened mail counted as new mail", n)
	}
	if got := fmt.Sprint(subjects(in.Rows())); got != "[Work 1]" || in.Unread("Work") != 0 {
		t.Fatalf("rows %s, %d unread; want the screened rows left out", got, in.Unread("Work"))
	}
	held.Screened = ScreenNone
	in.Replace("Work", []Message{forged, held, msg("Work", 1, time.Hour, true)}, false)
	if got := fmt.Sprint(subjects(in.Rows())); got != "[Work 2 Work 1]" || in.Unread("Work") != 1 {
		t.Fatalf("let in: rows %s, %d unread", got, in.Unread("Work"))
	}
}
