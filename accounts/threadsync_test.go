package accounts

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/model"
	"unibox/model/thread"
)

// threadMail is a raw message answering parent ("" for none).
func threadMail(subject, id, parent string) []byte {
	h := map[string]string{}
	if parent != "" {
		h["In-Reply-To"], h["References"] = "<"+parent+">", "<"+parent+">"
	}
	return imaptest.Mail{From: "Ann <ann@example.org>", To: "me@example.org", Subject: subject, MessageID: id,
		Date: time.Now(), Body: "x", Headers: h}.Bytes()
}

// A sync ends with threads whole: mail stored before its threading ids
// were fetched gets them (fetch_threading, in the sync's later steps),
// and the account's Sent folder is synced too, so the reply sent from
// here and the original in INBOX are one thread, through the real
// serve-imap child.
func TestSyncThreadsStoredMailAndSent(t *testing.T) {
	a, mem, st := storedAccount(t, false)
	user := "user1"
	mem.Seed(t, user, "INBOX", threadMail("plans", "o@x", ""))
	mem.Seed(t, user, "INBOX", threadMail("Re: plans", "r2@x", "o@x"))
	mem.Seed(t, user, "Sent", threadMail("Re: plans", "r@x", "o@x"))

	// The INBOX as a unibox before threads stored it: envelopes, no ids.
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
	var old []model.Message
	for _, b := range bufs {
		old = append(old, model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: sel.UIDValidity, UID: uint32(b.UID)},
			MessageID: b.Envelope.MessageID, Subject: b.Envelope.Subject})
	}
	key := store.Key{Name: "Work", Host: mem.Host(), User: user}
	if _, err := st.ApplySync(context.Background(), key, store.Changes{Folder: "INBOX", Reset: true, UIDValidity: sel.UIDValidity,
		UIDNext: uint32(sel.UIDNext), Total: sel.NumMessages, New: old, Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, uids, _ := st.Unthreaded(context.Background(), key, "INBOX", 0, 10); len(uids) != 4 {
		t.Fatalf("%d rows without threading ids before the sync, want 4", len(uids))
	}

	start := time.Now()
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("sync with its threading steps (4 ids fetched again, Sent of 1 synced): %s", time.Since(start).Round(time.Millisecond))
	if _, uids, _ := st.Unthreaded(context.Background(), key, "INBOX", 0, 10); len(uids) != 0 {
		t.Fatalf("%d rows still without threading ids", len(uids))
	}
	want := thread.ID("o@x")
	byID := map[string]string{}
	for _, folder := range []string{"INBOX", "Sent"} {
		p, _, err := a.Stored().Cached(context.Background(), folder, 10)
		if err != nil {
			t.Fatalf("%s: %v", folder, err)
		}
		for _, m := range p.Messages {
			byID[m.MessageID] = m.ThreadID
		}
	}
	for _, id := range []string{"o@x", "r2@x", "r@x"} {
		if byID[id] != want {
			t.Fatalf("%s is in thread %q, want %q (all: %v)", id, byID[id], want, byID)
		}
	}
	// Listings from the server carry the ids too: a page stored (Save
	// sets them) and a page of unread mail only (not stored: read from
	// the stored rows).
	for _, opts := range []ListOptions{{}, {UnreadOnly: true}} {
		p, err := a.List(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Messages) == 0 {
			t.Fatalf("%+v: an empty listing", opts)
		}
		for _, m := range p.Messages {
			if want := byID[m.MessageID]; m.ThreadID == "" || want != "" && m.ThreadID != want {
				t.Fatalf("%+v: %s listed in thread %q, stored in %q", opts, m.MessageID, m.ThreadID, want)
			}
		}
	}
	var noted bool
	for _, e := range a.History(100) {
		noted = noted || strings.Contains(e.Text, `Sent "Sent" synced`)
	}
	if !noted {
		t.Fatal("the history does not say Sent was synced")
	}
}
