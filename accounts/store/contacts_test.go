package store

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/contact"
)

var (
	me       = model.Address{Name: "Sam Doe", Address: "Sam@Home.example"}
	day0     = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	contact1 = model.Address{Name: "Ann Keller", Address: "ann@example.org"}
)

// mail is a message of folder from from to to (and cc), dated day days
// after day0.
func mail(folder string, uid uint32, day int, from model.Address, to []model.Address, cc []model.Address) model.Message {
	return model.Message{ID: model.MessageID{Account: "Work", Folder: folder, UIDValidity: 1, UID: uid},
		MessageID: fmt.Sprintf("%s-%d@example.org", folder, uid), From: from, To: to, Cc: cc,
		Subject: "s", Date: day0.AddDate(0, 0, day)}
}

// put stores msgs as the whole of folder (a listing of every uid).
func put(t *testing.T, s *Store, folder string, uv uint32, msgs ...model.Message) {
	t.Helper()
	for i := range msgs {
		msgs[i].ID.UIDValidity = uv
	}
	if err := s.Save(ctx, work, Listing{Folder: folder, UIDValidity: uv, Messages: msgs, At: day0}); err != nil {
		t.Fatal(err)
	}
}

// rowsOf is the index's rows of work by "addr writer".
func rowsOf(t *testing.T, s *Store) (map[string]Correspondent, int64) {
	t.Helper()
	c, err := s.Contacts(ctx, []Key{work})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Correspondent{}
	for _, r := range c.Rows[work] {
		out[r.Addr+" "+r.Writer] = r
	}
	return out, c.Version
}

func weightAt(day int) float64 {
	return contact.Weight(day0.AddDate(0, 0, day).UnixMilli(), time.Now().UnixMilli())
}

// The rows count what is written and what goes: senders outside Sent,
// recipients (To and Cc, once a message) inside it, by the From of the
// Sent message; the newest address and name stay; an expunge or a
// folder's reset takes its messages out; a change of flags changes
// nothing, not even the version.
func TestContactsFollowTheRows(t *testing.T) {
	s := newStore(t)
	if err := s.SetSent(ctx, work, "Sent"); err != nil {
		t.Fatal(err)
	}
	bob := model.Address{Name: "Bob", Address: "bob@example.org"}
	put(t, s, "INBOX", 1,
		mail("INBOX", 1, 1, model.Address{Name: "Ann", Address: "ANN@example.org"}, []model.Address{me}, nil),
		mail("INBOX", 2, 3, model.Address{Address: "ann@example.org"}, []model.Address{me}, nil), // newest: no name
		mail("INBOX", 3, 2, bob, []model.Address{me}, []model.Address{contact1}))
	put(t, s, "Sent", 1,
		mail("Sent", 1, 4, me, []model.Address{contact1, bob}, []model.Address{{Address: "Ann@Example.org"}}), // ann twice: once
		mail("Sent", 2, 5, me, []model.Address{{Name: "Annie", Address: "ann@example.org"}}, nil))
	rows, v1 := rowsOf(t, s)
	want := map[string]struct {
		n       int
		name    string
		address string
		days    []int
	}{
		"ann@example.org ":                 {2, "Ann", "ann@example.org", []int{1, 3}},
		"bob@example.org ":                 {1, "Bob", "bob@example.org", []int{2}},
		"ann@example.org sam@home.example": {2, "Annie", "ann@example.org", []int{4, 5}},
		"bob@example.org sam@home.example": {1, "Bob", "bob@example.org", []int{4}},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %v, want %v", slices.Collect(mapsKeys(rows)), want)
	}
	for k, w := range want {
		r, ok := rows[k]
		if !ok {
			t.Fatalf("no row %q in %v", k, rows)
		}
		score := contact.NoWeight
		for _, d := range w.days {
			score = contact.LogAdd(score, weightAt(d))
		}
		last := day0.AddDate(0, 0, slices.Max(w.days))
		if r.N != w.n || r.Name != w.name || r.Address != w.address || !r.Last.Equal(last) || math.Abs(r.Score-score) > 1e-9 {
			t.Errorf("%q: %+v, want n %d name %q address %q last %s score %v", k, r, w.n, w.name, w.address, last, score)
		}
	}

	// Flags only: nothing moves.
	if _, err := s.Apply(ctx, work, model.Op{Action: model.ActSetSeen, Value: true}, []model.Message{mail("INBOX", 1, 1, contact1, nil, nil)}); err != nil {
		t.Fatal(err)
	}
	if _, v := rowsOf(t, s); v != v1 {
		t.Fatalf("a flag moved the version %d -> %d", v1, v)
	}

	// Bob's mail expunged: his From row goes, his Sent row stays.
	put(t, s, "INBOX", 1,
		mail("INBOX", 1, 1, model.Address{Name: "Ann", Address: "ANN@example.org"}, []model.Address{me}, nil),
		mail("INBOX", 2, 3, model.Address{Address: "ann@example.org"}, []model.Address{me}, nil))
	rows, v2 := rowsOf(t, s)
	if _, ok := rows["bob@example.org "]; ok || v2 == v1 {
		t.Fatalf("after the expunge (version %d -> %d): %v", v1, v2, rows)
	}
	if r := rows["ann@example.org "]; r.N != 2 {
		t.Fatalf("ann's From row: %+v", r)
	}
	// Sent's UIDVALIDITY changes: its rows go (the folder's cascade),
	// and come back with the new listing.
	put(t, s, "Sent", 2, mail("Sent", 1, 6, me, []model.Address{bob}, nil))
	rows, _ = rowsOf(t, s)
	if _, ok := rows["ann@example.org sam@home.example"]; ok {
		t.Fatalf("ann's Sent row outlived its folder: %v", rows)
	}
	if r := rows["bob@example.org sam@home.example"]; r.N != 1 || math.Abs(r.Score-weightAt(6)) > 1e-9 {
		t.Fatalf("bob's Sent row: %+v", r)
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Which folder is Sent is the sync's to say: rows stored before are
// counted again when it does (or when it changes), and saying the same
// again writes nothing.
func TestSetSentCountsTheAccountAgain(t *testing.T) {
	s := newStore(t)
	put(t, s, "Sent", 1, mail("Sent", 1, 1, me, []model.Address{contact1}, nil))
	put(t, s, "Envoyés", 1, mail("Envoyés", 1, 2, me, []model.Address{{Address: "zoe@example.fr"}}, nil))
	rows, _ := rowsOf(t, s)
	if _, ok := rows["sam@home.example "]; !ok || len(rows) != 1 {
		t.Fatalf("before Sent is known, its messages are From rows: %v", rows)
	}
	if err := s.SetSent(ctx, work, "Sent"); err != nil {
		t.Fatal(err)
	}
	rows, v := rowsOf(t, s)
	if _, ok := rows["ann@example.org sam@home.example"]; !ok || len(rows) != 2 {
		t.Fatalf("Sent known: %v", rows)
	}
	if err := s.SetSent(ctx, work, "Sent"); err != nil {
		t.Fatal(err)
	}
	if _, again := rowsOf(t, s); again != v {
		t.Fatalf("the same Sent again moved the version")
	}
	if err := s.SetSent(ctx, work, "Envoyés"); err != nil {
		t.Fatal(err)
	}
	rows, _ = rowsOf(t, s)
	if _, ok := rows["zoe@example.fr sam@home.example"]; !ok || len(rows) != 2 {
		t.Fatalf("Sent moved to Envoyés: %v", rows)
	}
	if _, ok := rows["sam@home.example "]; !ok {
		t.Fatalf("the old Sent's messages are From rows again: %v", rows)
	}
}

// An opened message's list headers mark its list (or a newsletter's
// sender) as bulk, and the version moves.
func TestBodiesMarkBulkAddresses(t *testing.T) {
	s := newStore(t)
	list := model.Address{Address: "dev@lists.example.org"}
	m := mail("INBOX", 1, 1, contact1, []model.Address{list}, nil)
	put(t, s, "INBOX", 1, m)
	_, v := rowsOf(t, s)
	b := model.Body{Message: m, Headers: []model.Header{{Name: "List-Id", Value: "Dev <dev.lists.example.org>"}}, Text: "hi"}
	if err := s.SaveBody(ctx, work, b, 1<<20); err != nil {
		t.Fatal(err)
	}
	c, err := s.Contacts(ctx, []Key{work})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Bulk["dev@lists.example.org"] || c.Bulk["ann@example.org"] || len(c.Bulk) != 1 || c.Version == v {
		t.Fatalf("bulk %v, version %d -> %d", c.Bulk, v, c.Version)
	}
}

// The triggers and a count from scratch agree, whatever happened: random
// listings, expunges, resets, changed Cc, moves and triage over a few
// folders, then the rows against a build over the stored messages.
func TestContactsAgreeWithACountFromScratch(t *testing.T) {
	s := newStore(t)
	if err := s.SetSent(ctx, work, "Sent"); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 38))
	people := []model.Address{me, contact1, {Name: "Bob", Address: "bob@example.org"}, {Name: "", Address: "BOB@Example.org"},
		{Name: "Chloé", Address: "chloe@example.fr"}, {Name: "Dev list", Address: "dev@lists.example.org"}, {Address: "noreply@shop.example"}}
	pick := func() model.Address { return people[r.IntN(len(people))] }
	some := func() []model.Address {
		out := []model.Address{}
		for range r.IntN(4) {
			out = append(out, pick())
		}
		return out
	}
	folders := map[string][]model.Message{}
	uv := map[string]uint32{"INBOX": 1, "Sent": 1, "Archive": 1}
	next := uint32(1)
	iters := 150
	if raceEnabled {
		iters = 60
	}
	for range iters {
		f := []string{"INBOX", "Sent", "Archive"}[r.IntN(3)]
		switch op := r.IntN(10); {
		case op < 5: // new mail
			from := pick()
			if f == "Sent" && r.IntN(5) > 0 {
				from = me
			}
			var cc []model.Address
			if r.IntN(3) > 0 {
				cc = some()
			}
			folders[f] = append(folders[f], mail(f, next, r.IntN(60), from, some(), cc))
			next++
		case op < 7 && len(folders[f]) > 0: // an expunge
			i := r.IntN(len(folders[f]))
			folders[f] = slices.Delete(folders[f], i, i+1)
		case op < 8 && len(folders[f]) > 0: // its Cc or its name changed (a refetch), in every folder it is filed in
			m := folders[f][r.IntN(len(folders[f]))]
			cc, name := some(), fmt.Sprintf("Name %d", r.IntN(5))
			for _, g := range []string{"INBOX", "Sent", "Archive"} {
				for j := range folders[g] {
					if folders[g][j].MessageID == m.MessageID {
						folders[g][j].Cc, folders[g][j].From.Name = cc, name
					}
				}
			}
		case op < 9 && f != "Archive" && len(folders[f]) > 0 && r.IntN(2) == 0: // filed in Archive too (a Gmail label)
			m := folders[f][r.IntN(len(folders[f]))]
			m.ID.UID, m.ID.Folder = next, "Archive"
			next++
			folders["Archive"] = append(folders["Archive"], m)
		case op < 9: // the folder reset (UIDVALIDITY)
			uv[f]++
		default: // a move from f to Archive
			if len(folders[f]) > 0 && f != "Archive" {
				i := r.IntN(len(folders[f]))
				m := folders[f][i]
				folders[f] = slices.Delete(folders[f], i, i+1)
				m.ID.UID, m.ID.Folder = next, "Archive"
				next++
				folders["Archive"] = append(folders["Archive"], m)
			}
		}
		put(t, s, f, uv[f], slices.Clone(folders[f])...)
		if f != "Archive" {
			put(t, s, "Archive", uv["Archive"], slices.Clone(folders["Archive"])...)
		}
	}
	got, _ := rowsOf(t, s)
	if err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec(`UPDATE counter SET value = 0 WHERE name = 'contacts_built'`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.buildContacts(ctx); err != nil {
		t.Fatal(err)
	}
	want, _ := rowsOf(t, s)
	if len(got) != len(want) || len(want) < 5 {
		t.Fatalf("%d rows by the triggers, %d from scratch:\n%v\n%v", len(got), len(want), got, want)
	}
	for k, w := range want {
		g := got[k]
		if g.N != w.N || math.Abs(g.Score-w.Score) > 1e-6 || !g.Last.Equal(w.Last) && g.Last.Before(w.Last) {
			t.Errorf("%q: triggers %+v, from scratch %+v", k, g, w)
		}
	}
}

// A message filed in several folders outside Sent (Gmail's labels and
// All Mail) wrote to the person once: it counts once, and goes from the
// index with its last copy; rows without a Message-ID are messages of
// their own. A file of schema 10, which counted every copy, is counted
// again on the upgrade.
func TestContactsCountAMessageOnceAcrossFolders(t *testing.T) {
	bob := model.Address{Name: "Bob", Address: "bob@example.org"}
	labelled := mail("INBOX", 1, 3, bob, []model.Address{me}, nil)
	inAll := labelled
	inAll.ID.Folder, inAll.ID.UID = "All Mail", 7
	inWork := labelled
	inWork.ID.Folder, inWork.ID.UID = "Work", 9
	anonymous := mail("INBOX", 2, 4, bob, []model.Address{me}, nil)
	anonymous.MessageID = ""
	anonymousToo := anonymous
	anonymousToo.ID.Folder, anonymousToo.ID.UID = "All Mail", 8

	s := newStore(t)
	if err := s.SetSent(ctx, work, "Sent"); err != nil {
		t.Fatal(err)
	}
	n := func() int {
		t.Helper()
		rows, _ := rowsOf(t, s)
		return rows["bob@example.org "].N
	}
	put(t, s, "INBOX", 1, labelled)
	put(t, s, "All Mail", 1, inAll)
	put(t, s, "Work", 1, inWork)
	if got := n(); got != 1 {
		t.Fatalf("one message in three folders counts %d times", got)
	}
	put(t, s, "INBOX", 1, labelled, anonymous)
	put(t, s, "All Mail", 1, inAll, anonymousToo)
	if got := n(); got != 3 {
		t.Fatalf("with two rows without a Message-ID: %d, want 3", got)
	}
	put(t, s, "All Mail", 1)
	put(t, s, "INBOX", 1)
	if got := n(); got != 1 {
		t.Fatalf("with the one copy in Work left: %d, want 1", got)
	}
	put(t, s, "Work", 1)
	if got := n(); got != 0 {
		t.Fatalf("with no copy left: %d, want 0", got)
	}

	// What schema 10 left: both copies counted.
	var stmts []string
	stmts = append(stmts, `INSERT INTO account (id, name, host, user, inbox, sent) VALUES (1, 'Work', 'imap.example.org', 'ann', 'INBOX', 'Sent');
		INSERT INTO folder (account_id, name, uidvalidity) VALUES (1, 'INBOX', 1), (1, 'All Mail', 1)`)
	for _, f := range []string{"INBOX", "All Mail"} {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date,
			seen, flagged, answered, size, attachments, forwarded) VALUES (1, %q, 1, 'same@x', 'Bob', 'bob@example.org', '[]', 's', 1000, 1, 0, 0, 10, 0, 0)`, f))
	}
	older, err := Open(olderFile(t, 10, stmts...))
	if err != nil {
		t.Fatal(err)
	}
	defer older.Close()
	<-older.upgraded
	c, err := older.Contacts(ctx, []Key{work})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows[work] {
		if r.Addr == "bob@example.org" && r.Writer == "" && r.N != 1 {
			t.Fatalf("after the upgrade, one message in two folders counts %d times", r.N)
		}
	}
}

// A file of schema 6 (the unibox before contacts) is counted in the
// background after Open: the rows it held are in the index, and the
// file's version is this unibox's.
func TestContactsBuiltForAnOlderFile(t *testing.T) {
	path := olderFile(t, 6, `INSERT INTO account (id, name, host, user, inbox) VALUES (1, 'Work', 'imap.example.org', 'ann', 'INBOX');
		INSERT INTO folder (account_id, name, uidvalidity) VALUES (1, 'INBOX', 1);
		INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date,
			seen, flagged, answered, size, attachments) VALUES
			(1, 'INBOX', 1, 'a@x', 'Ann', 'ann@example.org', '[]', 's', 1000, 1, 0, 0, 10, 0),
			(1, 'INBOX', 2, 'b@x', 'Ann K', 'ann@example.org', '[]', 's', 2000, 1, 0, 0, 10, 0);
		INSERT INTO body (account_id, folder, uid, body, size, stored_at) VALUES
			(1, 'INBOX', 2, '{"headers":[{"Name":"List-Unsubscribe","Value":"<https://x>"}],"text":""}', 60, 1)`)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	<-s.upgraded
	c, err := s.Contacts(ctx, []Key{work})
	if err != nil {
		t.Fatal(err)
	}
	rows := c.Rows[work]
	if len(rows) != 1 || rows[0].N != 2 || rows[0].Name != "Ann K" || !c.Bulk["ann@example.org"] {
		t.Fatalf("rows %+v, bulk %v", rows, c.Bulk)
	}
	var version int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != schemaVersion {
		t.Fatalf("user_version %d (%v)", version, err)
	}
}
