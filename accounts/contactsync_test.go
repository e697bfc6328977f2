package accounts

import (
	"context"
	"testing"
	"time"

	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
)

// A sync of INBOX tells the store which folder is Sent (through the real
// serve-imap child: special-use, else sent_folder) before it syncs it, so
// the contacts index counts a message there as written by its From to
// its recipients, not as mail received from its From.
func TestSyncTellsTheStoreWhichFolderIsSent(t *testing.T) {
	a, mem, st := storedAccount(t, false)
	user := "user1"
	mem.Seed(t, user, "Sent", imaptest.Mail{From: "Me <me@example.org>", To: "Bob <bob@example.org>", Subject: "hi", Date: time.Now(), Body: "x"}.Bytes())
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	key := store.Key{Name: "Work", Host: mem.Host(), User: user}
	c, err := st.Contacts(context.Background(), []store.Key{key})
	if err != nil {
		t.Fatal(err)
	}
	var written, heardFromMe bool
	for _, r := range c.Rows[key] {
		written = written || r.Addr == "bob@example.org" && r.Writer == "me@example.org"
		heardFromMe = heardFromMe || r.Addr == "me@example.org" && r.Writer == ""
	}
	if !written || heardFromMe {
		t.Fatalf("the Sent message counted as received, or not as written: %+v", c.Rows[key])
	}
}
