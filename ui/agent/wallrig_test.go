package agent

import (
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/testservers/memimap"
)

// wallRig is a hub over one IMAP account "Work" (sam@example.com, alias
// sam@alias.example) on an in-process server with the given folders, its
// configuration changed by tweak, with an MCP client connected in memory.
type wallRig struct {
	*rig
	set *accounts.Set
}

func newWallRig(t *testing.T, folders map[string]imap.MailboxAttr, tweak func(*config.Account)) *wallRig {
	t.Helper()
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", folders); err != nil {
		t.Fatal(err)
	}
	ac := config.Account{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		From: &mail.Address{Name: "Sam", Address: "sam@example.com"}, Aliases: []string{"sam@alias.example"}}
	if tweak != nil {
		tweak(&ac)
	}
	cfg := &config.Config{Accounts: []config.Account{ac}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	set := openSet(t, cfg)
	hub := New(set, 20*time.Second)
	hub.Refresh = 0
	r := &rig{srv: srv, user: "sam", cs: connect(t, hub, nil)}
	return &wallRig{rig: r, set: set}
}

// ids are the list_messages ids of folder's messages, newest first.
func (r *rig) ids(t *testing.T, folder string) []string {
	t.Helper()
	var l ListOut
	r.mustCall(t, "list_messages", ListIn{Folder: folder, Limit: 100}, &l)
	var out []string
	for _, m := range l.Messages {
		out = append(out, m.ID)
	}
	return out
}

// refused checks that every outcome of w failed naming the wall's rule.
func refused(t *testing.T, what string, w WriteOut, n int) {
	t.Helper()
	if len(w.Outcomes) != n {
		t.Fatalf("%s: %d outcomes, want %d: %+v", what, len(w.Outcomes), n, w.Outcomes)
	}
	for _, o := range w.Outcomes {
		if o.Status != "failed" || !strings.Contains(o.Error, wallRule) {
			t.Fatalf("%s was not refused by the wall: %+v", what, o)
		}
	}
}

// flagsIn is the flags of each message of sam's folder, by subject, as
// another client (a person's phone) finds them.
func flagsIn(t *testing.T, srv *memimap.Server, folder string) map[string][]imap.Flag {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("sam", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]imap.Flag{}
	if sel.NumMessages == 0 {
		return out
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{Flags: true, Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		out[m.Envelope.Subject] = m.Flags
	}
	return out
}
