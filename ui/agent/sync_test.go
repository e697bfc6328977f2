package agent_test

import (
	"fmt"
	"testing"
	"time"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/agent"
	"unibox/ui/facetest"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// An agent's list_messages syncs too: the first call takes one page of a
// first sync, of its limit, the next two finish it in pages of 200, an
// unchanged inbox then moves no envelope, and another client's flag
// arrives without one.
func TestAgentListMessagesSyncs(t *testing.T) {
	wire := &imaptest.Wire{}
	srv, err := memimap.Start(memimap.Options{DebugWriter: wire})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "canary-secret-31337", nil); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("m%03d", i), Date: time.Now().Add(time.Duration(i-300) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	cs := facetest.MCP(t, facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW"))))
	list := func() agent.ListOut {
		var out agent.ListOut
		facetest.Call(t, cs, "list_messages", agent.ListIn{Limit: 5}, &out)
		return out
	}
	wire.Envelopes()
	if out := list(); len(out.Messages) != 5 || out.Messages[0].Subject != "m299" {
		t.Fatalf("first list_messages: %+v", out.Messages)
	}
	if n := wire.Envelopes(); n != 5 {
		t.Fatalf("first list_messages fetched %d envelopes, want a first sync's page of its limit (5)", n)
	}
	// The first sync left unfinished goes one page of 200 further each
	// time while the newest page is listed: 200 and then the last 95.
	for i, want := range []int{205, 100} {
		if out := list(); len(out.Messages) != 5 || out.Messages[0].Subject != "m299" {
			t.Fatalf("list_messages %d: %+v", i+2, out.Messages)
		}
		if n := wire.Envelopes(); n != want {
			t.Fatalf("list_messages %d fetched %d envelopes, want %d: a page of the first sync and a listing of 5", i+2, n, want)
		}
	}
	if out := list(); len(out.Messages) != 5 || wire.Envelopes() != 0 {
		t.Fatalf("an unchanged inbox: %d rows", len(out.Messages))
	}
	facetest.OtherClient(t, srv, "canary-secret-31337", func(c *imapclient.Client) {
		if err := c.Store(imap.SeqSetNum(300), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	})
	wire.Envelopes()
	if out := list(); !out.Messages[0].Seen || out.Messages[0].Stale {
		t.Fatalf("another client's flag: %+v", out.Messages[0])
	}
	if n := wire.Envelopes(); n != 0 {
		t.Fatalf("a flag change fetched %d envelopes", n)
	}
}
