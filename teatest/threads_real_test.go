package teatest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/tui"
)

// The thread view acts on a real server: e on a conversation's row moves
// every message of it in INBOX to Archive and leaves the reply in Sent
// where it is; z puts them all back. A message with the conversation's
// subject but no link stays in INBOX throughout. On the in-process
// server and a real Dovecot.
func TestThreadArchiveAndUndoOnARealServer(t *testing.T) {
	for _, tt := range []struct {
		name    string
		backend func(t *testing.T) imaptest.Backend
	}{
		{"memimap", func(t *testing.T) imaptest.Backend { return imaptest.NewMem(t, memimap.Options{}) }},
		{"dovecot", func(t *testing.T) imaptest.Backend { return imaptest.StartDovecot(t) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.backend(t)
			user, pass := b.NewUser(t)
			mail := func(from, subject, id string, ago time.Duration, refs ...string) []byte {
				m := imaptest.Mail{From: from, To: "Sam <sam@example.org>", Subject: subject, MessageID: id, Date: now.Add(-ago), Body: "x", Headers: map[string]string{}}
				if len(refs) > 0 {
					m.Headers["In-Reply-To"] = "<" + refs[len(refs)-1] + ">"
					refList := ""
					for _, r := range refs {
						refList += " <" + r + ">"
					}
					m.Headers["References"] = refList[1:]
				}
				return m.Bytes()
			}
			b.Seed(t, user, "INBOX", mail("Bob <bob@example.com>", "the boat", "boat1@example.com", 2*time.Hour))
			b.Seed(t, user, "Sent", mail("Sam <sam@example.org>", "Re: the boat", "boat2@example.org", time.Hour, "boat1@example.com"))
			b.Seed(t, user, "INBOX", mail("Bob <bob@example.com>", "Re: the boat", "boat3@example.com", 10*time.Minute, "boat1@example.com", "boat2@example.org"))
			b.Seed(t, user, "INBOX", mail("Eve <eve@example.net>", "Re: the boat", "forged@example.net", 5*time.Minute))

			set, st := openStoredUser(t, b, filepath.Join(t.TempDir(), "store.db"), user, pass)
			defer st.Close()
			defer set.Close()
			tm, _ := run(t, uiAccounts(set), 100, 16, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
			waitFor(t, tm, "Eve", "Home ● connected")
			tm.Send(key("t"))
			waitFor(t, tm, "Bob", "Re: the boat (2)", "2 conversations")
			tm.Send(key("j")) // Eve's is the newest: Bob's conversation is second
			tm.Send(key("e"))
			waitFor(t, tm, "archived 2")

			other := b.Client(t, user)
			folders(t, other, map[string]uint32{"INBOX": 1, "Archive": 2, "Sent": 1}, "after e on the conversation")
			tm.Send(key("z"))
			waitFor(t, tm, "Re: the boat (2)")
			folders(t, other, map[string]uint32{"INBOX": 3, "Archive": 0, "Sent": 1}, "after z")
		})
	}
}

// folders waits until each folder holds its count of messages, as another
// client sees them (a move reaches the server after the screen shows it).
func folders(t *testing.T, c *imapclient.Client, want map[string]uint32, when string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := map[string]uint32{}
		same := true
		for f, n := range want {
			st, err := c.Status(f, &imap.StatusOptions{NumMessages: true}).Wait()
			if err != nil {
				t.Fatalf("%s: status %s: %v", when, f, err)
			}
			got[f] = *st.NumMessages
			same = same && got[f] == n
		}
		if same {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the server's folders hold %v, want %v", when, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
