package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"unibox/model"
	"unibox/model/thread"
)

var home = Key{Name: "Home", Host: "imap.example.net", User: "ann"}

// tmsg is a message with its threading ids fetched.
func tmsg(account, folder string, uid uint32, id, inReplyTo string, refs ...string) model.Message {
	m := msg(account, folder, 1, uid)
	m.MessageID = id
	m.Subject = "Lunch" // links join only within one subject (issue 35)
	m.Threading = &model.ThreadHeaders{MessageID: id, InReplyTo: inReplyTo, References: refs}
	return m
}

// add stores msgs as new mail of folder (a sync's page: rows already
// stored stay).
func add(t *testing.T, s *Store, k Key, folder string, msgs ...model.Message) []model.Message {
	t.Helper()
	top := uint32(0)
	for _, m := range msgs {
		top = max(top, m.ID.UID)
	}
	if _, err := s.ApplySync(ctx, k, Changes{Folder: folder, UIDValidity: 1, UIDNext: top + 1, Total: top, New: msgs, Done: true}); err != nil {
		t.Fatal(err)
	}
	return msgs
}

// threadIDs are the thread ids of every stored row of k's folder, by
// Message-ID.
func threadIDs(t *testing.T, s *Store, k Key, folder string) map[string]string {
	t.Helper()
	snap, err := s.Newest(ctx, k, folder, 1000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range snap.Messages {
		if m.ThreadID == "" {
			t.Fatalf("%s/%s uid %d has no thread id", k.Name, folder, m.ID.UID)
		}
		out[m.MessageID] = m.ThreadID
	}
	return out
}

// A reply in Sent and its original in INBOX are one thread; so is a copy
// of the original that reached another account (both rows kept, each
// with its account); a message with the same subject and no link is
// another thread. The listing's own rows get the id as they are stored.
func TestThreadSpansFoldersAndAccounts(t *testing.T) {
	s := newStore(t)
	orig := add(t, s, work, "INBOX", tmsg("Work", "INBOX", 1, "o@x", ""), tmsg("Work", "INBOX", 2, "u@x", ""))
	reply := add(t, s, work, "Sent", tmsg("Work", "Sent", 1, "r@x", "o@x", "o@x"))
	copyOf := add(t, s, home, "INBOX", tmsg("Home", "INBOX", 7, "o@x", ""))
	want := thread.ID("o@x")
	for what, got := range map[string]string{"original": orig[0].ThreadID, "reply": reply[0].ThreadID, "copy": copyOf[0].ThreadID} {
		if got != want {
			t.Fatalf("the %s's listing row is in thread %q, want %q", what, got, want)
		}
	}
	if ids := threadIDs(t, s, work, "INBOX"); ids["o@x"] != want || ids["u@x"] == want {
		t.Fatalf("stored INBOX threads %v, want o@x in %s and u@x apart", ids, want)
	}
	if ids := threadIDs(t, s, work, "Sent"); ids["r@x"] != want {
		t.Fatalf("stored Sent threads %v", ids)
	}
	rows, err := s.Thread(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range rows {
		got = append(got, m.ID.String())
	}
	slices.Sort(got)
	if wantRows := []string{copyOf[0].ID.String(), orig[0].ID.String(), reply[0].ID.String()}; !slices.Equal(got, slices.Sorted(slices.Values(wantRows))) {
		t.Fatalf("thread %s holds %v, want %v", want, got, wantRows)
	}
}

// A message that shows an older root merges threads with a bounded number
// of writes: the rows already stored keep the retired id in their column
// and resolve through one alias; aliases stay resolved (point at a live
// id) through a second merge, and an old id still finds the thread.
func TestThreadMergeWritesAnAlias(t *testing.T) {
	s := newStore(t)
	var replies []model.Message
	for i := range 50 {
		replies = append(replies, tmsg("Work", "INBOX", uint32(10+i), fmt.Sprintf("re%d@x", i), "b@x", "b@x"))
	}
	add(t, s, work, "INBOX", replies...)
	tb, ta, tz := thread.ID("b@x"), thread.ID("a@x"), thread.ID("z@x")
	column := func(tid string) (n int) {
		t.Helper()
		if err := s.db.QueryRow(`SELECT count(*) FROM message WHERE thread_id = ?`, tid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if column(tb) != 50 {
		t.Fatalf("%d rows in thread b, want 50", column(tb))
	}
	add(t, s, work, "INBOX", tmsg("Work", "INBOX", 100, "b@x", "a@x", "a@x")) // b answers a: a is the root
	if column(tb) != 50 || column(ta) != 1 {
		t.Fatalf("a merge rewrote rows: %d still in b, %d in a", column(tb), column(ta))
	}
	for id, tid := range threadIDs(t, s, work, "INBOX") {
		if tid != ta {
			t.Fatalf("%s reads as thread %s after the merge, want %s", id, tid, ta)
		}
	}
	add(t, s, home, "INBOX", tmsg("Home", "INBOX", 1, "a@x", "", "z@x")) // a answers z
	var stale int
	if err := s.db.QueryRow(`SELECT count(*) FROM thread_alias WHERE new != ?`, tz).Scan(&stale); err != nil || stale != 0 {
		t.Fatalf("%d aliases do not point at the live thread (%v)", stale, err)
	}
	for _, old := range []string{tb, ta, tz} {
		if live, err := s.ResolveThread(ctx, old); err != nil || live != tz {
			t.Fatalf("thread %s resolves to %q, %v; want %s", old, live, err, tz)
		}
		if rows, err := s.Thread(ctx, old); err != nil || len(rows) != 52 {
			t.Fatalf("thread %s: %d rows, %v; want 52", old, len(rows), err)
		}
	}
	if _, err := s.ResolveThread(ctx, thread.ID("nothing@x")); err != ErrNotStored {
		t.Fatalf("an unknown thread: %v", err)
	}
}

// chain is one conversation whose links are only In-Reply-To (no
// References): until the parent arrives, a message looks like a root, so
// the order in which parts come in moves the root around.
func chain(n int) []model.Message {
	var out []model.Message
	for i := range n {
		irt := ""
		if i > 0 {
			irt = fmt.Sprintf("c%d@x", i-1)
		}
		out = append(out, tmsg("Work", "INBOX", uint32(i+1), fmt.Sprintf("c%d@x", i), irt))
	}
	return out
}

// Two processes' handles on one file, adding parts of one conversation in
// opposite orders, end with one thread id, the one a store rebuilt from
// scratch with every message at once gives; a third handle opened later
// builds the same threads and writes nothing.
func TestThreadSameInEveryProcessAndRebuild(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	all := chain(40)
	for i := range 20 {
		add(t, a, work, "INBOX", all[39-2*i]) // odd ones, newest first
		add(t, b, work, "INBOX", all[2*i])    // even ones, oldest first
		add(t, b, home, "INBOX", tmsg("Home", "INBOX", uint32(i+1), fmt.Sprintf("h%d@x", i), all[39-i].MessageID))
	}
	want := thread.ID("c0@x")
	for _, s := range []*Store{a, b} {
		for _, k := range []Key{work, home} {
			for id, tid := range threadIDs(t, s, k, "INBOX") {
				if tid != want {
					t.Fatalf("%s: %s is in thread %s, want %s", k.Name, id, tid, want)
				}
			}
		}
	}
	var aliases int
	a.db.QueryRow(`SELECT count(*) FROM thread_alias`).Scan(&aliases)
	t.Logf("40 messages in opposite orders from two handles: %d aliases", aliases)

	rebuilt := newStore(t)
	add(t, rebuilt, work, "INBOX", all...)
	for id, tid := range threadIDs(t, rebuilt, work, "INBOX") {
		if tid != want {
			t.Fatalf("rebuilt: %s is in thread %s, want %s", id, tid, want)
		}
	}

	before := changesOf(t, a)
	c, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.WarmThreads(ctx); err != nil {
		t.Fatal(err)
	}
	if after := changesOf(t, a); after != before {
		t.Fatalf("a third handle's build wrote: %s\nthen %s", before, after)
	}
}

// changesOf is every row's stored thread id and every alias, as text.
func changesOf(t *testing.T, s *Store) string {
	t.Helper()
	var out string
	if err := s.db.QueryRow(`SELECT coalesce(group_concat(uid || ':' || thread_id, ' '), '') || ' | ' ||
		coalesce((SELECT group_concat(old || '>' || new, ' ') FROM thread_alias), '') FROM message`).Scan(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Hostile References stay bounded: 5,000 ids, a cycle, a message naming
// itself. Each is one finite thread, and what is stored of the header is
// the first and the last 50 ids.
func TestThreadHostileReferences(t *testing.T) {
	s := newStore(t)
	var huge []string
	for i := range 5000 {
		huge = append(huge, fmt.Sprintf("h%d@x", i))
	}
	got := add(t, s, work, "INBOX",
		tmsg("Work", "INBOX", 1, "a@x", "b@x", "b@x"),
		tmsg("Work", "INBOX", 2, "b@x", "a@x", "a@x"),
		tmsg("Work", "INBOX", 3, "self@x", "self@x", "self@x"),
		tmsg("Work", "INBOX", 4, "huge@x", "", huge...),
	)
	if got[0].ThreadID != got[1].ThreadID || got[2].ThreadID == "" || got[3].ThreadID != thread.ID("h0@x") {
		t.Fatalf("threads %q %q %q %q", got[0].ThreadID, got[1].ThreadID, got[2].ThreadID, got[3].ThreadID)
	}
	snap, err := s.Newest(ctx, work, "INBOX", 10)
	if err != nil {
		t.Fatal(err)
	}
	if refs := snap.Messages[0].Threading.References; len(refs) != 1+thread.MaxTail || refs[0] != "h0@x" || refs[len(refs)-1] != "h4999@x" {
		t.Fatalf("stored %d References of a 5,000-id header", len(refs))
	}
}

// A process builds its threads without the write lock: another process
// holding it (a long write) does not hold up the build, only the write
// that follows it.
func TestThreadBuildTakesNoWriteLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	add(t, a, work, "INBOX", chain(30)...)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tx, err := a.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: a holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE counter SET value = value WHERE name = 'seq'`); err != nil {
		t.Fatal(err)
	}
	if err := b.build(ctx); err != nil {
		t.Fatalf("the build waited on another process's write lock: %v", err)
	}
	if rows, _ := b.threads.t.Len(); rows != 30 {
		t.Fatalf("built %d rows, want 30", rows)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
}
