package accounts

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model/thread"
)

// The "done when", through the real stack (serve-imap children,
// one store for two accounts): a conversation with In-Reply-To and
// References chains, a reply in Sent whose answer the INBOX holds, and
// one message delivered to both accounts are one thread_id; a message
// with the same subject and no link stays apart.
func TestThreadsAcrossTwoAccounts(t *testing.T) {
	for _, backend := range []struct {
		name  string
		start func(t *testing.T) (b imaptest.Backend, u1, p1, u2, p2 string)
	}{
		{"memimap", func(t *testing.T) (imaptest.Backend, string, string, string, string) {
			b := imaptest.NewMem(t, memimap.Options{})
			u1, p1 := b.NewUser(t)
			u2, p2 := b.NewUser(t)
			return b, u1, p1, u2, p2
		}},
		// A private instance (its users' mailboxes are this test's):
		// alice and bob, as .ci/dovecot.sh makes them.
		{"dovecot", func(t *testing.T) (imaptest.Backend, string, string, string, string) {
			return imaptest.StartDovecot(t), "alice", "alice-pw", "bob", "bob-pw"
		}},
	} {
		t.Run(backend.name, func(t *testing.T) {
			b, u1, p1, u2, p2 := backend.start(t)
			b.Seed(t, u1, "INBOX", threadMail("plans", "o@x", ""))
			b.Seed(t, u1, "INBOX", threadMail("Re: plans", "r1@x", "o@x"))
			r3 := imaptest.Mail{From: "Bo <bo@example.org>", To: "me@example.org", Subject: "Re: plans", MessageID: "r3@x", Date: time.Now(), Body: "x",
				Headers: map[string]string{"In-Reply-To": "<r2@x>", "References": "<o@x> <r1@x> <r2@x>"}}.Bytes()
			b.Seed(t, u1, "INBOX", r3)
			b.Seed(t, u1, "Sent", imaptest.Mail{From: "me@example.org", To: "bo@example.org", Subject: "Re: plans", MessageID: "r2@x", Date: time.Now(), Body: "x",
				Headers: map[string]string{"In-Reply-To": "<r1@x>", "References": "<o@x> <r1@x>"}}.Bytes())
			b.Seed(t, u2, "INBOX", threadMail("plans", "o@x", ""))
			b.Seed(t, u2, "INBOX", threadMail("plans", "u@x", ""))

			st, err := store.Open(filepath.Join(t.TempDir(), "store.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			cfg := &config.Config{Accounts: []config.Account{
				{Name: "Work", Kind: "imap", Host: b.Host(), Port: b.Port(), Security: "none", Username: u1},
				{Name: "Home", Kind: "imap", Host: b.Host(), Port: b.Port(), Security: "none", Username: u2}}}
			cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
			pass := map[string]string{u1: p1, u2: p2}
			set, err := Open(cfg, Options{Exe: unibin.Exe(t),
				Store: Have(st), Password: func(ac config.Account) func(context.Context) (string, error) {
					return func(context.Context) (string, error) { return pass[ac.Username], nil }
				}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(set.Close)
			for _, a := range set.Accounts {
				if err := a.Sync(context.Background(), "", nil); err != nil {
					t.Fatalf("%s: %v", a.Name(), err)
				}
			}
			want := thread.ID("o@x")
			rows, err := st.Thread(context.Background(), want)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, m := range rows {
				got[m.ID.Account+" "+m.ID.Folder+" "+m.MessageID]++
			}
			for _, row := range []string{"Work INBOX o@x", "Work INBOX r1@x", "Work INBOX r3@x", "Work Sent r2@x", "Home INBOX o@x"} {
				if got[row] != 1 {
					t.Fatalf("thread %s holds %v, want %q once", want, got, row)
				}
			}
			if len(rows) != 5 {
				t.Fatalf("thread %s holds %d rows (%v), want 5: the unlinked message with the same subject joined", want, len(rows), got)
			}
		})
	}
}
