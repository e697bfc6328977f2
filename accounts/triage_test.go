package accounts

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/model"
)

// oneAccount opens an account "Work" on an in-process server with faults.
func oneAccount(t *testing.T, faults *memimap.Faults, opts memimap.Options) (*Account, *memimap.Server, string) {
	opts.Faults = faults
	srv, err := memimap.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash}); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam"}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	set, err := Open(cfg, Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set.Accounts[0], srv, "sam"
}

func seedOne(t *testing.T, srv *memimap.Server, user, subject, msgID string) {
	raw := imaptest.Mail{From: "a@x.org", To: "sam@x.org", Subject: subject, Date: time.Now(), MessageID: msgID, Body: "x"}.Bytes()
	if _, err := srv.Append(user, "INBOX", raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, a *Account, folder string) []model.Message {
	page, err := a.List(context.Background(), ListOptions{Folder: folder})
	if err != nil {
		t.Fatal(err)
	}
	return page.Messages
}

// The server carries out the MOVE and hangs up before answering: the
// provider says "unknown", the runner reads and finds it done: archived
// exactly once, reported done, with its destination for undo.
func TestArchiveWithDropAfterSendIsReconciledNotDoubled(t *testing.T) {
	faults := &memimap.Faults{}
	a, srv, user := oneAccount(t, faults, memimap.Options{})
	seedOne(t, srv, user, "archive me once", "once.1@unibox.test")
	inbox := count(t, a, "INBOX")
	faults.DropAfter("MOVE", 1)
	res, err := a.Apply(context.Background(), model.Op{Action: model.ActArchive}, "INBOX", inbox[0].ID.UIDValidity, inbox)
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Kind != model.ResultDone || !r.Reconciled || r.Dest.UID == 0 || r.Dest.Folder != "Archive" {
		t.Fatalf("result %+v", r)
	}
	if n := len(count(t, a, "Archive")); n != 1 {
		t.Fatalf("archived %d times", n)
	}
	if n := len(count(t, a, "INBOX")); n != 0 {
		t.Fatalf("still %d in INBOX", n)
	}
}

// Without MOVE the provider copies, then flags and expunges; a drop after
// the COPY leaves the original in INBOX and a copy in Archive. Reading
// finds the copy: reported done with a warning, never sent again (a
// second COPY would double it).
func TestCopyFallbackDropNeverDoubles(t *testing.T) {
	faults := &memimap.Faults{}
	a, srv, user := oneAccount(t, faults, memimap.Options{NoMove: true})
	seedOne(t, srv, user, "copy me once", "copy.1@unibox.test")
	inbox := count(t, a, "INBOX")
	faults.DropAfter("COPY", 1)
	res, err := a.Apply(context.Background(), model.Op{Action: model.ActArchive}, "INBOX", inbox[0].ID.UIDValidity, inbox)
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Kind != model.ResultDone || r.Err == "" {
		t.Fatalf("result %+v", r)
	}
	if n := len(count(t, a, "Archive")); n != 1 {
		t.Fatalf("%d copies in Archive, want exactly 1", n)
	}
}

// A flag write whose connection dies around its STORE: the outcome is
// unknown, and reading decides. Carried out before the hang-up, \Seen is
// found set: done, and never sent again. Cut before the server ran it, it
// is provably not done: sent once more, and done.
func TestFlagDropAroundStore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cut    func(*memimap.Faults, *memimap.Server)
		stores int
	}{
		{"after the store: reconciled, not resent", func(f *memimap.Faults, _ *memimap.Server) { f.DropAfter("STORE", 1) }, 1},
		{"before the store: resent", func(f *memimap.Faults, srv *memimap.Server) {
			hold := f.HoldNext("STORE")
			go func() {
				<-hold.Held
				srv.DropAll()       // the STORE has arrived; the connection dies
				hold.Release(false) // and the server never carries it out
			}()
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			faults := &memimap.Faults{}
			var w imaptest.Wire
			a, srv, user := oneAccount(t, faults, memimap.Options{DebugWriter: &w})
			seedOne(t, srv, user, "read me", "read.1@unibox.test")
			inbox := count(t, a, "INBOX")
			tc.cut(faults, srv)
			res, err := a.Apply(context.Background(), model.Op{Action: model.ActSetSeen, Value: true}, "INBOX", inbox[0].ID.UIDValidity, inbox)
			if err != nil || res[0].Kind != model.ResultDone || !res[0].Reconciled {
				t.Fatalf("%+v %v", res, err)
			}
			if !count(t, a, "INBOX")[0].Seen {
				t.Fatal("not read on the server")
			}
			if n := len(storeCmd.FindAllStringIndex(w.String(), -1)); n != tc.stores {
				t.Fatalf("%d STOREs reached the server, want %d", n, tc.stores)
			}
		})
	}
}

// storeCmd is a STORE command in a server's wire log.
var storeCmd = regexp.MustCompile(`(?m)^T\d+ UID STORE `)

// A call that cannot even be sent (the account is down) is an error: the
// caller rolls back, nothing is reported done.
func TestApplyOnDownAccountFailsCleanly(t *testing.T) {
	a, srv, user := oneAccount(t, nil, memimap.Options{})
	seedOne(t, srv, user, "x", "x.1@unibox.test")
	inbox := count(t, a, "INBOX")
	srv.Refuse()
	srv.DropAll()
	_, err := a.Apply(context.Background(), model.Op{Action: model.ActArchive}, "INBOX", inbox[0].ID.UIDValidity, inbox)
	if err == nil {
		t.Fatal("archive on a refusing server reported success")
	}
	if maybeDone(err) {
		t.Fatalf("a refused connection was reported as maybe done: %v", err)
	}
}
