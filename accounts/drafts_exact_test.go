package accounts

import (
	"bytes"
	"context"
	"net/mail"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/model"
)

// draftingAccount is "Work" (sam@example.com) on an in-process server
// with Drafts, able to send (through a real SMTP server on loopback, to
// which nothing is sent here), with faults.
func draftingAccount(t *testing.T, faults *memimap.Faults) (*Account, *memimap.Server) {
	t.Helper()
	srv, err := memimap.Start(memimap.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Drafts": imap.MailboxAttrDrafts, "Sent": imap.MailboxAttrSent}); err != nil {
		t.Fatal(err)
	}
	smtp, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "pw"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	ac := config.Account{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		From: &mail.Address{Name: "Sam", Address: "sam@example.com"},
		SMTP: &config.SMTP{Host: "127.0.0.1", Port: smtp.Port(), Security: "none", Username: "sam"}}
	return openAccount(t, ac, Options{Password: func(config.Account) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return "pw", nil }
	}}), srv
}

// strangerAfterCut is the account's sending handle, with this on top of its
// Append: once the copy is stored and the answer lost, a stranger's message lands in
// the same folder, newer, whose Message-ID contains the draft's.
type strangerAfterCut struct {
	*Sending
	srv *memimap.Server
	t   *testing.T
}

func (s strangerAfterCut) Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error) {
	id, err := s.Sending.Append(ctx, folder, special, raw, flags, date)
	m, perr := mail.ReadMessage(bytes.NewReader(raw))
	if perr != nil {
		s.t.Errorf("the draft does not parse: %v", perr)
		return id, err
	}
	ours, _ := model.CleanMsgID(m.Header.Get("Message-Id"))
	decoy := imaptest.Mail{From: "x@example.com.evil", Subject: "theirs", Date: time.Now(), MessageID: "x-" + ours + ".evil", Body: "x"}.Bytes()
	if _, aerr := s.srv.Append("sam", "Drafts", decoy, nil, time.Now()); aerr != nil {
		s.t.Error(aerr)
	}
	return id, err
}

// An agent draft whose APPEND to Drafts lost its answer is looked up by
// its Message-ID (drafting's fileCopy); the uid found is the one the
// draft is known by, which discard_draft deletes. A stranger's newer
// message in Drafts whose Message-ID contains the draft's was taken for
// it, and discarding the draft deleted the stranger's mail, leaving the
// agent's copy behind.
func TestDraftCopyIsFoundExactly(t *testing.T) {
	ctx := context.Background()
	faults := &memimap.Faults{}
	a, srv := draftingAccount(t, faults)
	count(t, a, "INBOX") // connected: the fault hits the APPEND, not a login
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := drafting.NewWriter(box, -1)
	faults.DropAfter("APPEND", 1)
	filer := strangerAfterCut{Sending: a.Sending(), srv: srv, t: t}
	made, err := w.New(ctx, filer, []string{"ann@example.org"}, nil, "ours", "See you at noon.", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	there := subjects(t, a, "Drafts")
	if made.SavedTo.UID == 0 || made.SavedTo.UID != there["ours"] || made.Draft.ServerDraft.UID != there["ours"] {
		t.Fatalf("the draft is known as %+v (ref %+v); Drafts holds %v", made.SavedTo, made.Draft.ServerDraft, there)
	}
	if _, err := w.Discard(ctx, made.Draft.ID, func(string) drafting.Filer { return filer }, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if left := subjects(t, a, "Drafts"); len(left) != 1 || left["theirs"] == 0 {
		t.Fatalf("after discard_draft Drafts holds %v, want only the stranger's", left)
	}
}
