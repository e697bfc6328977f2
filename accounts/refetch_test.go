package accounts

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/model"
	"unibox/model/query"
)

// Rows stored before search (schema 5 and below: no Cc, no attachment
// names) get them in the sync's later steps, fetched again with the
// threading ids page by page, through the real serve-imap child: cc:
// and filename: then find the old rows, and a row threaded already is
// fetched again for them too.
func TestSyncRefetchesCcAndNamesOfOldRows(t *testing.T) {
	a, mem, st := storedAccount(t, false)
	user := "user1"
	mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", To: "me@example.org", Subject: "files", MessageID: "f@x",
		Date: time.Now(), Body: "see attached", Headers: map[string]string{"Cc": "Zoë Quist <zoe@example.net>"},
		Attach: map[string][]byte{"invoice-2026.pdf": []byte("%PDF-1.4")}}.Bytes())
	mem.Seed(t, user, "INBOX", threadMail("plans", "o@x", ""))

	c := mem.Client(t, user)
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	all := imap.SeqSet{}
	all.AddRange(1, sel.NumMessages)
	bufs, err := c.Fetch(all, &imap.FetchOptions{UID: true, Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	// As an older unibox stored them: envelopes without Cc or names; one
	// with its threading ids known already.
	var old []model.Message
	for _, b := range bufs {
		m := model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: sel.UIDValidity, UID: uint32(b.UID)},
			MessageID: b.Envelope.MessageID, Subject: b.Envelope.Subject, Date: b.Envelope.Date}
		if b.Envelope.Subject != "files" {
			m.Threading = &model.ThreadHeaders{MessageID: b.Envelope.MessageID}
		}
		old = append(old, m)
	}
	key := store.Key{Name: "Work", Host: mem.Host(), User: user}
	if _, err := st.ApplySync(context.Background(), key, store.Changes{Folder: "INBOX", Reset: true, UIDValidity: sel.UIDValidity,
		UIDNext: uint32(sel.UIDNext), Total: sel.NumMessages, New: old, Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	found := func(q string) []string {
		t.Helper()
		n, err := query.Parse(q, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		f, err := st.Search(context.Background(), store.Search{Query: n, Accounts: []store.Key{key}, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, h := range f.Hits {
			s = append(s, h.Subject)
		}
		return s
	}
	if got := found("cc:zoe OR filename:invoice"); len(got) != 0 {
		t.Fatalf("found %q before the re-fetch", got)
	}
	if _, uids, _ := st.Unthreaded(context.Background(), key, "INBOX", 0, 10); len(uids) != len(old) {
		t.Fatalf("%d rows to fetch again, want all %d (one lacks its ids, all their Cc)", len(uids), len(old))
	}
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if _, uids, _ := st.Unthreaded(context.Background(), key, "INBOX", 0, 10); len(uids) != 0 {
		t.Fatalf("%d rows still to fetch again after the sync", len(uids))
	}
	if got := found("cc:zoe"); !slices.Equal(got, []string{"files"}) {
		t.Errorf("cc:zoe finds %q", got)
	}
	if got := found("filename:invoice"); !slices.Equal(got, []string{"files"}) {
		t.Errorf("filename:invoice finds %q", got)
	}
	p, _, err := a.Stored().Cached(context.Background(), "INBOX", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range p.Messages {
		if m.Cc == nil {
			t.Errorf("%q: Cc still unknown", m.Subject)
		}
	}
}
