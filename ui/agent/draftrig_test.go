package agent

import (
	"context"
	"net/mail"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
)

// draftWorld is one account, Work (sam@example.com), on an in-process
// IMAP server with Drafts and Sent, able to send through a real SMTP
// server on loopback (which must receive nothing: agents do not send),
// with one message from Bob in its INBOX, in a thread, Cc'ing Carol.
// edit, when given, changes the config before the account opens.
type draftWorld struct {
	srv  *memimap.Server
	smtp *smtptest.Server
	set  *accounts.Set
	root string // the drafts' root, shared by every hub of the world
}

func newDraftWorld(t *testing.T, edit ...func(*config.Config)) *draftWorld {
	t.Helper()
	w := &draftWorld{root: t.TempDir()}
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	w.srv = srv
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts,
		"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash}); err != nil {
		t.Fatal(err)
	}
	orig := imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "lunch?", MessageID: "lunch-1@example.com",
		Date: time.Now().Add(-time.Hour), Body: "Noon?",
		Headers: map[string]string{"Cc": "Carol <carol@example.com>", "In-Reply-To": "<first@example.com>", "References": "<first@example.com>"}}.Bytes()
	if _, err := srv.Append("sam", "INBOX", orig, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.smtp, err = smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "pw"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.smtp.Close() })
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		From: &mail.Address{Name: "Sam", Address: "sam@example.com"}, SaveSent: config.SaveSentAlways,
		SMTP: &config.SMTP{Host: "127.0.0.1", Port: w.smtp.Port(), Security: "none", Username: "sam"}}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	for _, e := range edit {
		e(cfg)
	}
	w.set = openSet(t, cfg)
	return w
}

// hub is a hub over the world's account, drafting into the world's root
// through a Box and Writer of its own (as a separate `unibox mcp` would),
// at most max drafts per hour, with an MCP client connected in memory;
// updated gets the URIs of resource updates.
func (w *draftWorld) hub(t *testing.T, max int) (*rig, <-chan string) {
	t.Helper()
	box, err := outbox.Open(w.root)
	if err != nil {
		t.Fatal(err)
	}
	hub := New(w.set, 20*time.Second)
	hub.Refresh = 0
	hub.DraftPoll = 20 * time.Millisecond
	hub.Drafts = drafting.NewWriter(box, max)
	updated := make(chan string, 64)
	r := &rig{srv: w.srv, user: "sam"}
	r.cs = connect(t, hub, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- req.Params.URI:
			default:
			}
		},
	})
	return r, updated
}

// original is the list_messages id of Bob's message.
func (r *rig) original(t *testing.T) string {
	t.Helper()
	var l ListOut
	r.mustCall(t, "list_messages", ListIn{}, &l)
	for _, m := range l.Messages {
		if m.Subject == "lunch?" {
			return m.ID
		}
	}
	t.Fatalf("no lunch? in %+v", l.Messages)
	return ""
}

// stored is one message in a folder, as another client reads it.
type stored struct {
	Raw   []byte
	Flags []imap.Flag
}

// folder reads every message of sam's folder over IMAP with a client of
// its own (what a person's other mail client would find there).
func (w *draftWorld) folder(t *testing.T, name string) []stored {
	t.Helper()
	c, err := imapclient.DialInsecure(w.srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("sam", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{Flags: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []stored
	for _, m := range msgs {
		var raw []byte
		for _, b := range m.BodySection {
			raw = b.Bytes
		}
		out = append(out, stored{Raw: raw, Flags: m.Flags})
	}
	return out
}
