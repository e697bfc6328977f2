package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/query"
)

// unfetchedUIDs walks every body-less row of work newest first, a page
// of two at a time, as the background fetch does.
func unfetchedUIDs(t *testing.T, s *Store, since time.Time) []uint32 {
	t.Helper()
	var out []uint32
	var below int64
	for {
		page, err := s.Unfetched(ctx, work, UnfetchedOptions{Since: since, Below: below, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			return out
		}
		for _, u := range page {
			out = append(out, u.ID.UID)
			below = u.Docid
		}
	}
}

// The walk of what lacks a body goes newest first, by date over every
// folder, stops at the age, skips what has a body and another account's
// rows.
func TestUnfetchedNewestFirstWithinTheAge(t *testing.T) {
	s := newStore(t)
	day := func(d int) time.Time { return time.Date(2026, 11, d, 9, 0, 0, 0, time.UTC) }
	inbox := msgs(7, 5, 4, 3, 2, 1)
	for i := range inbox {
		inbox[i].Date = day(20 - 2*i) // uid 5 on the 20th ... uid 1 on the 12th
	}
	arch := []model.Message{msg("Work", "Archive", 9, 40)}
	arch[0].Date = day(17)
	other := msg("Home", "INBOX", 7, 77)
	other.Date = day(21)
	home := Key{Name: "Home", Host: "imap.example.org", User: "bob"}
	for _, l := range []struct {
		k Key
		l Listing
	}{{work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: inbox}}, {work, Listing{Folder: "Archive", UIDValidity: 9, Messages: arch}},
		{home, Listing{Folder: "INBOX", UIDValidity: 7, Messages: []model.Message{other}}}} {
		l.l.At = time.Now()
		if err := s.Save(ctx, l.k, l.l); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveBody(ctx, work, model.Body{Message: inbox[1], Text: "opened"}, 1<<20); err != nil {
		t.Fatal(err)
	}
	if got, want := unfetchedUIDs(t, s, time.Time{}), []uint32{5, 40, 3, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("all: %v, want %v", got, want)
	}
	if got, want := unfetchedUIDs(t, s, day(16)), []uint32{5, 40, 3}; !slices.Equal(got, want) {
		t.Errorf("since the 16th: %v, want %v", got, want)
	}
	page, err := s.Unfetched(ctx, work, UnfetchedOptions{Limit: 1})
	if err != nil || len(page) != 1 {
		t.Fatal(page, err)
	}
	if u := page[0]; u.ID != inbox[0].ID || u.Size != int64(inbox[0].Size) || !u.Date.Equal(day(20)) {
		t.Errorf("first unfetched %+v, want %+v", u, inbox[0].ID)
	}
	// A rescan looks only above the newest the last walk began with.
	all, err := s.Unfetched(ctx, work, UnfetchedOptions{Limit: 10})
	if err != nil || len(all) != 5 {
		t.Fatal(all, err)
	}
	above, err := s.Unfetched(ctx, work, UnfetchedOptions{Above: all[1].Docid, Limit: 10})
	if err != nil || len(above) != 1 || above[0].ID.UID != 5 {
		t.Errorf("above uid 40's docid: %+v %v, want uid 5", above, err)
	}
	if page, err := s.Unfetched(ctx, Key{Name: "Nobody"}, UnfetchedOptions{Limit: 5}); err != nil || len(page) != 0 {
		t.Errorf("an account not stored: %v %v", page, err)
	}
}

// Bodies fetched in the background are indexed in their own write, keep
// a body the person opened meanwhile (the whole one), and say when the
// cap is reached at their mail: the bodies of older mail would only push
// out newer ones. Evicted bodies leave their messages' rows, which a
// search still finds by their headers.
func TestSaveFetchedKeepsOpenedAndStopsAtTheCap(t *testing.T) {
	s := newStore(t)
	in := msgs(7, 6, 5, 4, 3, 2, 1)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: in, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	opened := body(in[1], "the whole opened body")
	if err := s.SaveBody(ctx, work, opened, 1<<20); err != nil {
		t.Fatal(err)
	}
	fetched := func(m model.Message, word string) model.Body {
		return model.Body{Message: m, Text: word + " " + strings.Repeat("y", 200)}
	}
	const capBytes = 1000 // the opened body (~500) and two fetched ones (~240 each)
	saved, err := s.SaveFetched(ctx, work, []model.Body{fetched(in[0], "alpha"), fetched(in[1], "beta"), fetched(in[2], "gamma")}, capBytes)
	if err != nil {
		t.Fatal(err)
	}
	if saved != (Saved{Kept: 2}) {
		t.Errorf("first batch: %+v, want 2 kept, not full", saved)
	}
	got, err := s.Body(ctx, work, in[1].ID)
	if err != nil || got.Text != opened.Text || len(got.Attachments) != 1 {
		t.Errorf("the opened body after a fetch: %q %v", got.Text, err)
	}
	got, err = s.Body(ctx, work, in[0].ID)
	if err != nil || !strings.HasPrefix(got.Text, "alpha") || !slices.Contains(got.Problems, TextOnlyNote) {
		t.Errorf("a fetched body: %+v %v", got, err)
	}
	for word, uid := range map[string][]uint32{"alpha": {6}, "beta": nil, "gamma": {4}} {
		if h := hits(t, s, "body:"+word); !slices.Equal(h, uid) {
			t.Errorf("body:%s finds %v, want %v", word, h, uid)
		}
	}
	// The next, older batch does not fit: it is dropped again at once
	// (the oldest go first), and the fetch learns the cap is reached.
	saved, err = s.SaveFetched(ctx, work, []model.Body{fetched(in[3], "delta"), fetched(in[4], "epsilon")}, capBytes)
	if err != nil {
		t.Fatal(err)
	}
	if !saved.Full {
		t.Errorf("an older batch over the cap: %+v, want full", saved)
	}
	if total, err := s.BodyBytes(ctx); err != nil || total > capBytes {
		t.Errorf("stored bodies %d bytes (%v), cap %d", total, err, capBytes)
	}
	// A newer body pushes out the oldest mail's; that message's row stays
	// and is found by its subject, no longer by its body.
	newer := msg("Work", "INBOX", 7, 9)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: append([]model.Message{newer}, in...), At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if saved, err := s.SaveFetched(ctx, work, []model.Body{fetched(newer, "zeta")}, capBytes); err != nil || saved != (Saved{Kept: 1}) {
		t.Fatalf("a newer body: %+v %v", saved, err)
	}
	if h := hits(t, s, "body:gamma"); len(h) != 0 {
		t.Errorf("the oldest mail's body is still indexed: %v", h)
	}
	res, err := s.Search(ctx, Search{Query: mustParse(t, "subject:4"), Accounts: []Key{work}, Limit: 10})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].ID.UID != 4 {
		t.Errorf("the row of an evicted body by its subject: %+v %v", res.Hits, err)
	}
	// A body larger than the whole cap is not kept, and says so.
	if saved, err := s.SaveFetched(ctx, work, []model.Body{fetched(in[5], strings.Repeat("z", 2000))}, capBytes); err != nil || !saved.Full || saved.Kept != 0 {
		t.Errorf("a body over the cap: %+v %v", saved, err)
	}
}

func mustParse(t *testing.T, q string) query.Node {
	t.Helper()
	n, err := query.Parse(q, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// cache_bodies = false: every body of the account leaves the file (and
// the index), in chunks; the rows stay.
func TestDropBodies(t *testing.T) {
	s := newStore(t)
	in := msgs(7, 3, 2, 1)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: in, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var bodies []model.Body
	for _, m := range in {
		bodies = append(bodies, model.Body{Message: m, Text: "secretword"})
	}
	if _, err := s.SaveFetched(ctx, work, bodies, 1<<20); err != nil {
		t.Fatal(err)
	}
	n, err := s.DropBodies(ctx, work)
	if err != nil || n != 3 {
		t.Fatalf("dropped %d, %v", n, err)
	}
	var left int
	if err := s.db.QueryRow(`SELECT count(*) FROM body`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d bodies left (%v)", left, err)
	}
	if h := hits(t, s, "body:secretword"); len(h) != 0 {
		t.Errorf("dropped bodies still indexed: %v", h)
	}
	if h := hits(t, s, "subject:subject"); len(h) != 3 {
		t.Errorf("rows after the drop: %v", h)
	}
}

// The cap reads the index of dates and sizes, never a body: the size
// column lies past each body's overflow pages.
func TestEvictionReadsNoBody(t *testing.T) {
	s := newStore(t)
	// A batch of fetched bodies finds each row by its key, the batch the
	// outer loop (a scan of the rows per body took minutes a batch).
	plan := queryPlan(t, s, "EXPLAIN QUERY PLAN "+insertBodies+"DO NOTHING", 0, "[]", 1)
	outer, byKey := strings.Index(plan, "SCAN j"), strings.Index(plan, "SEARCH m USING PRIMARY KEY (account_id=? AND folder=? AND uid=?)")
	if outer < 0 || byKey < outer {
		t.Errorf("batch insert: plan %s", plan)
	}
	for _, q := range []string{`SELECT coalesce(sum(size), 0) FROM body INDEXED BY body_date`,
		`SELECT account_id, folder, uid, size FROM body INDEXED BY body_date ORDER BY date, size`} {
		var plan strings.Builder
		rows, err := s.db.Query("EXPLAIN QUERY PLAN " + q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan.WriteString(detail + "; ")
		}
		rows.Close()
		if !strings.Contains(plan.String(), "COVERING INDEX body_date") || strings.Contains(plan.String(), "TEMP B-TREE") {
			t.Errorf("%s: plan %s", q, plan.String())
		}
	}
}

// A file of version 6 keeps its bodies on the upgrade, each dated by its
// message, so the cap drops the oldest mail's first from then on.
func TestMigrationFrom6DatesTheBodies(t *testing.T) {
	stmts := []string{`INSERT INTO account (id, name, host, user, inbox) VALUES (1, 'Work', 'imap.example.org', 'ann', 'INBOX')`,
		`INSERT INTO folder (account_id, name, uidvalidity) VALUES (1, 'INBOX', 7)`}
	for uid, date := range map[int]int64{1: 3_000_000, 2: 1_000_000, 3: 2_000_000} {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date,
			seen, flagged, answered, size, attachments) VALUES (1, 'INBOX', %d, 'm%d@x', 'Ann', 'ann@x', '[]', 's', %d, 1, 0, 0, 10, 0)`, uid, uid, date),
			// stored_at runs against the date: uid 1, the newest mail, was stored first
			fmt.Sprintf(`INSERT INTO body (account_id, folder, uid, body, size, stored_at) VALUES (1, 'INBOX', %d, '{"text":"old %d"}', 100, %d)`, uid, uid, uid))
	}
	path := olderFile(t, 6, stmts...)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dates := map[uint32]int64{}
	rows, err := s.db.Query(`SELECT uid, date FROM body`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var uid uint32
		var date int64
		if err := rows.Scan(&uid, &date); err != nil {
			t.Fatal(err)
		}
		dates[uid] = date
	}
	rows.Close()
	if want := map[uint32]int64{1: 3_000_000, 2: 1_000_000, 3: 2_000_000}; fmt.Sprint(dates) != fmt.Sprint(want) {
		t.Fatalf("body dates after the upgrade %v, want %v", dates, want)
	}
	// Room for two: the oldest mail's body (uid 2) goes, not the one
	// stored first (uid 1).
	if err := s.SaveBodies(ctx, work, nil, 200); err != nil {
		t.Fatal(err)
	}
	var uids []uint32
	rows, err = s.db.Query(`SELECT uid FROM body ORDER BY uid`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var uid uint32
		if err := rows.Scan(&uid); err != nil {
			t.Fatal(err)
		}
		uids = append(uids, uid)
	}
	rows.Close()
	if !slices.Equal(uids, []uint32{1, 3}) {
		t.Errorf("bodies kept %v, want [1 3]", uids)
	}
}

func queryPlan(t *testing.T, s *Store, q string, args ...any) string {
	t.Helper()
	rows, err := s.db.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "; ")
	}
	return plan.String()
}

// Dropped bodies leave the file, not just the tables: no word of theirs
// is in the database or its WAL afterwards (freed pages overwritten, the
// index merged, the WAL emptied), while the rows' words stay.
func TestDroppedBodiesLeaveTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in := msgs(7, 3, 2, 1)
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 7, Messages: in, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var bodies []model.Body
	for i, m := range in {
		bodies = append(bodies, model.Body{Message: m, Text: fmt.Sprintf("zebracorn%d the private words of message %d", i, i) + strings.Repeat(" quixotic", 500)})
	}
	if _, err := s.SaveFetched(ctx, work, bodies, 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DropBodies(ctx, work); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(path + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, word := range []string{"zebracorn", "quixotic"} {
			if bytes.Contains(data, []byte(word)) {
				t.Errorf("store.db%s still holds %q after the bodies were dropped", suffix, word)
			}
		}
	}
	if h := hits(t, s, "subject:subject"); len(h) != 3 {
		t.Errorf("rows after the drop: %v", h)
	}
}
