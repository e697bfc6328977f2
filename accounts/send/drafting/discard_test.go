package drafting

import (
	"context"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/model"
)

// realAccount is Work (sam@example.com) on an in-process IMAP server,
// reached as unibox reaches it: accounts.Open, a serve-imap child.
func realAccount(t *testing.T) *accounts.Account {
	t.Helper()
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts}); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none",
		Username: "sam", From: &mail.Address{Name: "Sam", Address: "sam@example.com"}}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set.Accounts[0]
}

// lying is an account whose DeleteMessages answers with what answer
// makes of the real answer: a provider that loses the outcome, or
// answers for nothing.
type lying struct {
	*accounts.Account
	answer func([]model.ItemResult) []model.ItemResult
}

func (l lying) DeleteMessages(ctx context.Context, folder string, uv uint32, uids []uint32) ([]model.ItemResult, error) {
	res, err := l.Account.DeleteMessages(ctx, folder, uv, uids)
	return l.answer(res), err
}

// Drop, the one discard of a person's x and an agent's discard_draft:
// the copy in Drafts goes first, then the local draft; whenever the
// server does not confirm the copy is gone (done, or gone already), the
// local draft stays, and so does the copy when it was never touched.
func TestDropIsConfirmedByTheServer(t *testing.T) {
	acct := realAccount(t)
	for _, tc := range []struct {
		name      string
		ref       func(model.MessageID) *outbox.Ref // the local draft's ServerDraft
		before    func(context.Context, model.MessageID)
		via       func(*accounts.Account) Deleter
		err       string // "": dropped
		copyStays bool
	}{
		{name: "the copy is deleted, then the draft"},
		{name: "a copy gone already is what was asked",
			before: func(ctx context.Context, id model.MessageID) {
				if _, err := acct.DeleteMessages(ctx, id.Folder, id.UIDValidity, []uint32{id.UID}); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "a draft with no copy", ref: func(model.MessageID) *outbox.Ref { return nil }, copyStays: true},
		{name: "a copy in another account's Drafts is not this one's to delete",
			ref: func(id model.MessageID) *outbox.Ref {
				return &outbox.Ref{Account: "Home", Folder: id.Folder, UIDValidity: id.UIDValidity, UID: id.UID}
			}, err: "cannot be deleted from here", copyStays: true},
		{name: "an outcome lost with the link keeps the draft",
			via: func(a *accounts.Account) Deleter {
				return lying{a, func(r []model.ItemResult) []model.ItemResult {
					return []model.ItemResult{{UID: r[0].UID, Kind: model.ResultUnknown, Err: "the link dropped"}}
				}}
			}, err: "the link dropped"}, // it went, but nobody here can know
		{name: "no answer for the copy keeps the draft",
			via: func(a *accounts.Account) Deleter {
				return lying{a, func([]model.ItemResult) []model.ItemResult { return nil }}
			}, err: "did not confirm"},
		{name: "an answer for another message keeps the draft",
			via: func(a *accounts.Account) Deleter {
				return lying{a, func(r []model.ItemResult) []model.ItemResult {
					return []model.ItemResult{{UID: r[0].UID + 1, Kind: model.ResultDone}}
				}}
			}, err: "did not confirm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			w := openWriter(t, "", -1)
			msgID := strings.ReplaceAll(strings.ToLower(tc.name), " ", "-") + "@example.com"
			raw := imaptest.Mail{From: "sam@example.com", To: "bob@example.com", Subject: tc.name, MessageID: msgID, Body: "draft"}.Bytes()
			id, err := acct.Append(ctx, "", "drafts", raw, []string{`\Draft`, `\Seen`}, time.Now())
			if err != nil || id.UID == 0 {
				t.Fatalf("append: %v, %+v", err, id)
			}
			ref := &outbox.Ref{Account: id.Account, Folder: id.Folder, UIDValidity: id.UIDValidity, UID: id.UID, MessageID: msgID}
			if tc.ref != nil {
				ref = tc.ref(id)
			}
			dr, err := w.box.NewDraft("Work", "new", nil, []byte("To: bob@example.com\nSubject: x\n\ndraft\n"))
			if err != nil {
				t.Fatal(err)
			}
			dr.ServerDraft = ref
			if err := w.box.SaveDraft(dr, nil); err != nil {
				t.Fatal(err)
			}
			if tc.before != nil {
				tc.before(ctx, id)
			}
			var d Deleter = acct
			if tc.via != nil {
				d = tc.via(acct)
			}
			_, text, err := w.Drop(ctx, d, dr.ID, 10*time.Second)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("Drop: %v, want %q", err, tc.err)
			}
			if string(text) != "To: bob@example.com\nSubject: x\n\ndraft\n" {
				t.Errorf("text %q", text)
			}
			_, _, lerr := w.box.Draft(dr.ID)
			if kept := lerr == nil; kept != (tc.err != "") {
				t.Errorf("local draft kept %v, want %v (%v)", kept, tc.err != "", lerr)
			}
			_, there, err := acct.FindMessageID(ctx, "", "drafts", msgID)
			if err != nil {
				t.Fatal(err)
			}
			if there != tc.copyStays {
				t.Errorf("copy in Drafts there %v, want %v", there, tc.copyStays)
			}
		})
	}
}
