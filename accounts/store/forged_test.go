package store

import (
	"path/filepath"
	"slices"
	"testing"

	"unibox/model/thread"
)

// Issue 35 item 8, on a real SQLite file: a spam whose References and
// In-Reply-To name Mom's message, with another subject, is a conversation
// of its own. Mom's conversation (what `d` trashes: Store.Thread of its
// id) holds her message and the reply, never the spam: when the spam
// arrives after them (the incremental path: her old id still finds her
// thread through an alias), in a process launched after it (a build from
// the file gives the ids stored), and in a file whose rows were threaded
// before the rule (the spam stamped with Mom's id is moved out by the
// first write).
func TestForgedReferencesStayOutOfTheConversation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	open := func() *Store {
		t.Helper()
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	mom := tmsg("Work", "INBOX", 1, "mom@family.example", "")
	mom.Subject = "Lunch on Sunday"
	reply := tmsg("Work", "Sent", 1, "me@work.example", "mom@family.example", "mom@family.example")
	reply.Subject = "Re: Lunch on Sunday"
	spam := tmsg("Work", "INBOX", 2, "spam@evil.example", "mom@family.example", "mom@family.example")
	spam.Subject = "Cheap pills"
	oldID := thread.ID("mom@family.example")

	// conversation is what `d` on the thread tid would trash.
	conversation := func(s *Store, tid string) []string {
		t.Helper()
		rows, err := s.Thread(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range rows {
			out = append(out, m.MessageID)
		}
		slices.Sort(out)
		return out
	}
	want := []string{"me@work.example", "mom@family.example"}
	// byOld: Mom's id from before the spam still finds her thread.
	check := func(s *Store, when string, byOld bool) (momTid, spamTid string) {
		t.Helper()
		inbox := threadIDs(t, s, work, "INBOX")
		momTid, spamTid = inbox["mom@family.example"], inbox["spam@evil.example"]
		if momTid == spamTid {
			t.Fatalf("%s: the spam is in Mom's thread %s", when, momTid)
		}
		if got := threadIDs(t, s, work, "Sent")["me@work.example"]; got != momTid {
			t.Fatalf("%s: the reply is in %s, Mom in %s", when, got, momTid)
		}
		tids := []string{momTid}
		if byOld {
			tids = append(tids, oldID)
		}
		for _, tid := range tids {
			if got := conversation(s, tid); !slices.Equal(got, want) {
				t.Fatalf("%s: d on Mom's conversation (%s) would trash %v, want %v", when, tid, got, want)
			}
		}
		if got := conversation(s, spamTid); len(got) == 0 || slices.ContainsFunc(got, func(id string) bool { return id != "spam@evil.example" && id != "spam2@evil.example" }) {
			t.Fatalf("%s: the spam's conversation holds %v", when, got)
		}
		return momTid, spamTid
	}

	s := open()
	add(t, s, work, "INBOX", mom)
	add(t, s, work, "Sent", reply)
	if got := threadIDs(t, s, work, "INBOX")["mom@family.example"]; got != oldID {
		t.Fatalf("Mom's thread before the spam is %s, want %s (ids of threads nobody else names do not change)", got, oldID)
	}
	add(t, s, work, "INBOX", spam)
	check(s, "the spam arriving", true)

	// Another spam shows an older root for the spam's thread: Mom's
	// message is no longer a root id two threads share, and her thread
	// takes its first id back (an alias renames it; none points at
	// itself).
	spam2 := tmsg("Work", "INBOX", 5, "spam2@evil.example", "spam@evil.example", "a-first@evil.example", "mom@family.example", "spam@evil.example")
	spam2.Subject = "Re: Cheap pills"
	add(t, s, work, "INBOX", spam2)
	momTid, spamTid := check(s, "the spam's thread rooted elsewhere", true)
	if momTid != oldID || threadIDs(t, s, work, "INBOX")["spam2@evil.example"] != spamTid {
		t.Fatalf("Mom's thread is %s, want %s again; spam threads %v", momTid, oldID, threadIDs(t, s, work, "INBOX"))
	}
	var selfAliases int
	if err := s.db.QueryRow(`SELECT count(*) FROM thread_alias WHERE old = new`).Scan(&selfAliases); err != nil || selfAliases != 0 {
		t.Fatalf("%d aliases point at themselves (%v)", selfAliases, err)
	}

	later := open()
	if err := later.WarmThreads(ctx); err != nil {
		t.Fatal(err)
	}
	add(t, later, work, "INBOX", tmsg("Work", "INBOX", 3, "other@x", ""))
	if m, sp := check(later, "a process launched later", true); m != momTid || sp != spamTid {
		t.Fatalf("a build from the file moved the threads: Mom %s→%s, spam %s→%s", momTid, m, spamTid, sp)
	}

	// The file as a unibox before the rule left it: every row in ID(mom).
	if _, err := s.db.Exec(`UPDATE message SET thread_id = ? WHERE message_id IN ('mom@family.example', 'me@work.example', 'spam@evil.example', 'spam2@evil.example')`, oldID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`DELETE FROM thread_alias`); err != nil {
		t.Fatal(err)
	}
	upgraded := open()
	add(t, upgraded, work, "INBOX", tmsg("Work", "INBOX", 4, "another@x", ""))
	check(upgraded, "the first write after an upgrade", false)
}
