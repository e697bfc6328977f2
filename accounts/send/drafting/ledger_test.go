package drafting

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/conn"
	"unibox/model"
)

// TestAuthorshipFollowsText: an agent's draft is the agent's while its
// text is what the agent wrote; once a person edits it, it is the
// person's and the agent cannot discard it. A header in the text claims
// nothing.
func TestAuthorshipFollowsText(t *testing.T) {
	w := openWriter(t, "", DefaultMaxPerHour)
	f := newFolder("Work")
	find := func(string) Filer { return f }
	m, err := w.New(context.Background(), f, []string{"ann@example.org"}, nil, "hi", "draft one", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r, err := w.Reply(context.Background(), f, model.Body{Message: model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 4},
		From: model.Address{Address: "bob@example.org"}, Subject: "q"}}, "a", false, false, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	l, err := w.Listed()
	if n := Answered(l)[model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 4}]; n != 1 || len(Answered(l)) != 1 {
		t.Fatalf("answered: %v", Answered(l))
	}
	l = slices.DeleteFunc(l, func(x Listed) bool { return x.ID == r.Draft.ID })
	if err != nil || len(l) != 1 || l[0].Author != Agent || l[0].Subject != "hi" || l[0].To[0].Address != "ann@example.org" {
		t.Fatalf("listed %+v, %v", l, err)
	}
	dr, text, err := w.box.Draft(m.Draft.ID)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), "draft one", "draft one, checked by me", 1)
	if err := w.box.SaveDraft(dr, []byte(edited)); err != nil { // what the editor does to the file
		t.Fatal(err)
	}
	l, _ = w.Listed()
	if i := slices.IndexFunc(l, func(x Listed) bool { return x.ID == m.Draft.ID }); i < 0 || l[i].Author != Person {
		t.Fatalf("after a person's edit: %+v", l)
	}
	if _, err := w.Discard(context.Background(), m.Draft.ID, find, time.Second); !errors.Is(err, ErrNotAgents) {
		t.Fatalf("discard of an edited draft: %v", err)
	}
	if f.count() != 2 {
		t.Fatal("the refused discard deleted the copy in Drafts")
	}
	if _, _, err := w.box.Draft(m.Draft.ID); err != nil {
		t.Fatalf("the refused discard lost the draft: %v", err)
	}

	// A person's own draft, whatever its text says, is never the agent's.
	p, err := w.box.NewDraft("Work", "new", nil, []byte("X-Unibox-Agent: yes\nTo: b@example.org\nSubject: mine\n\nhello"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Discard(context.Background(), p.ID, find, time.Second); !errors.Is(err, ErrNotAgents) {
		t.Fatalf("discard of a person's draft: %v", err)
	}
}

// TestDiscardAgentDraft removes the copy in Drafts, the local draft and
// its record, and says so in the history; a draft a person queued to
// send stays.
func TestDiscardAgentDraft(t *testing.T) {
	w := openWriter(t, "", DefaultMaxPerHour)
	f := newFolder("Work")
	find := func(string) Filer { return f }
	m, err := w.New(context.Background(), f, []string{"ann@example.org"}, nil, "bye", "x", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Discard(context.Background(), m.Draft.ID, find, time.Second); err != nil {
		t.Fatal(err)
	}
	if f.count() != 0 {
		t.Fatal("the copy in Drafts is still there")
	}
	if ds, _ := w.box.Drafts(); len(ds) != 0 {
		t.Fatalf("local drafts left: %+v", ds)
	}
	if _, err := os.Stat(w.recordPath(m.Draft.ID)); !os.IsNotExist(err) {
		t.Fatalf("the ledger record stays: %v", err)
	}
	if last := f.events[len(f.events)-1]; last != "agent discarded bye" {
		t.Fatalf("event %q", last)
	}

	q, err := w.New(context.Background(), f, []string{"ann@example.org"}, nil, "queued", "x", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.box.Enqueue(enqueued(q), []byte("w"), []byte("s")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Discard(context.Background(), q.Draft.ID, find, time.Second); !errors.Is(err, ErrQueued) {
		t.Fatalf("discard of a queued draft: %v", err)
	}
}

// TestFilingFailureLeavesNothing: when Drafts does not take the copy,
// the agent is told, and no local draft or record is left behind.
func TestFilingFailureLeavesNothing(t *testing.T) {
	w := openWriter(t, "", DefaultMaxPerHour)
	f := newFolder("Work")
	f.failAdd = errors.New("APPEND refused")
	if _, err := w.New(context.Background(), f, []string{"ann@example.org"}, nil, "hi", "x", time.Second); err == nil || !strings.Contains(err.Error(), "not drafted") {
		t.Fatalf("got %v", err)
	}
	if ds, _ := w.box.Drafts(); len(ds) != 0 {
		t.Fatalf("local drafts left: %+v", ds)
	}
	if ents, _ := os.ReadDir(w.root + "/" + ledgerDir); len(ents) != 2 { // rate.json and rate.lock only
		t.Fatalf("ledger holds %d files", len(ents))
	}
}

// TestHourlyCapAcrossWriters: two Writers on one root (two `unibox mcp`
// processes) share one count per account, taken under the lock; the
// hour slides.
func TestHourlyCapAcrossWriters(t *testing.T) {
	root := t.TempDir()
	a, b := openWriter(t, root, 5), openWriter(t, root, 5)
	now := time.Date(2026, 12, 4, 13, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	a.Now, b.Now = clock, clock
	fa, fb := newFolder("Work"), newFolder("Work")
	var wg sync.WaitGroup
	var okN, capN int
	var cmu sync.Mutex
	for i := range 8 {
		w, f := a, fa
		if i%2 == 1 {
			w, f = b, fb
		}
		wg.Go(func() {
			_, err := w.New(context.Background(), f, []string{"ann@example.org"}, nil, "hi", "x", time.Second)
			cmu.Lock()
			defer cmu.Unlock()
			switch {
			case err == nil:
				okN++
			case errors.Is(err, ErrRateLimited) && strings.Contains(err.Error(), "[agent] max_drafts_per_hour"):
				capN++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if okN != 5 || capN != 3 || fa.count()+fb.count() != 5 {
		t.Fatalf("%d drafted, %d refused, %d filed; want 5, 3, 5", okN, capN, fa.count()+fb.count())
	}
	if _, err := a.New(context.Background(), newFolder("Home"), []string{"ann@example.org"}, nil, "hi", "x", time.Second); err != nil {
		t.Fatalf("another account has its own count: %v", err)
	}
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	if _, err := b.New(context.Background(), fb, []string{"ann@example.org"}, nil, "hi", "x", time.Second); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}

// A record whose draft is gone is pruned once it is an hour old; a
// younger one stays (its draft may be being written).
func TestLedgerPrunesOrphans(t *testing.T) {
	w := openWriter(t, "", DefaultMaxPerHour)
	for _, id := range []string{"OLD", "YOUNG"} {
		if err := w.remember(record{DraftID: id, Account: "Work", SHA256: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(w.recordPath("OLD"), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Listed(); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.lookup("OLD"); ok {
		t.Error("the old orphan record stays")
	}
	if _, ok := w.lookup("YOUNG"); !ok {
		t.Error("a young record was pruned")
	}
}

// An APPEND whose outcome is unknown is never sent again: the copy is
// looked for by its Message-ID; found, the draft is made; the lookup
// failing too, the local draft is kept and the agent told.
func TestUnknownFilingIsLookedUp(t *testing.T) {
	w := openWriter(t, "", DefaultMaxPerHour)
	f := newFolder("Work")
	f.failAdd, f.storeAnyway = &conn.Error{Account: "Work", Op: "append_message", Err: errors.New("connection reset"), MaybeDone: true}, true
	m, err := w.New(context.Background(), f, []string{"ann@example.org"}, nil, "hi", "x", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if f.count() != 1 || m.Draft.ServerDraft == nil || m.Draft.ServerDraft.UID != 1 {
		t.Fatalf("made %+v; Drafts holds %d", m, f.count())
	}
	f.failFind = errors.New("still down")
	_, err = w.New(context.Background(), f, []string{"ann@example.org"}, nil, "hi", "x", time.Second)
	if err == nil || !strings.Contains(err.Error(), "may or may not have been stored") || !strings.Contains(err.Error(), "kept locally as draft_id") {
		t.Fatalf("got %v", err)
	}
	if l, _ := w.Listed(); len(l) != 2 || f.count() != 2 {
		t.Fatalf("local %d, Drafts %d: the kept draft must stay and the APPEND must not be repeated", len(l), f.count())
	}
}
