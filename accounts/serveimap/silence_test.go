package serveimap

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// quick are silence dials small enough for a test; the command deadline
// stays a minute, so a silent server found before it was found by silence.
// ProveWithin stays the default's 3 s: a proof is a fresh connection's
// greeting, and a loaded CI machine's Dovecot took over 500 ms to greet
// one during the login that provisions the test (CI saw "mail server is
// silent" at add_account).
var quick = Options{CommandTimeout: time.Minute, SilenceAfter: 100 * time.Millisecond, ProveWithin: 3 * time.Second}

// seenBy bounds how long finding a silent server may take on a loaded
// machine: far below quick's command deadline.
const seenBy = 20 * time.Second

// A server that answers nothing on any connection fails a command in
// SilenceAfter + ProveWithin, not at its deadline, and says why.
func TestSilentServerIsSeenBeforeTheDeadline(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, quick)
		b.Seed(t, user, "INBOX", mail("x", "a@x.org", time.Hour))
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, nil))
		restore := b.Proxy().Silence()
		defer restore()
		for _, tool := range []string{"list_messages", "check_account"} {
			start := time.Now()
			res := call(t, cs, tool, imapwire.ListMessagesIn{Account: "work"}, nil)
			mustClass(t, tool, res, conn.ClassTimeout)
			if took := time.Since(start); took > seenBy {
				t.Errorf("%s: a silent server took %s to be seen", tool, took)
			}
			if !strings.Contains(conn.ResultText(res), "silent") {
				t.Errorf("%s does not say the server is silent: %s", tool, conn.ResultText(res))
			}
		}
	})
}

// holding starts a memimap backend whose next cmd waits for the test, and
// a provisioned session on it.
func holding(t *testing.T, opts Options) (*mcp.ClientSession, imaptest.Backend, *memimap.Faults, string) {
	faults := &memimap.Faults{}
	b := imaptest.NewMem(t, memimap.Options{Faults: faults})
	cs, user := provisioned(t, b, opts)
	return cs, b, faults, user
}

// callAsync runs a tool in the background; its result arrives on the
// channel.
func callAsync(cs *mcp.ClientSession, tool string, args any) <-chan *mcp.CallToolResult {
	out := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		out <- res
	}()
	return out
}

func await(t *testing.T, what string, ch <-chan *mcp.CallToolResult) *mcp.CallToolResult {
	t.Helper()
	select {
	case res := <-ch:
		return res
	case <-time.After(seenBy):
		t.Fatalf("%s: no answer within %s", what, seenBy)
		return nil
	}
}

// A slow command on a live server (the server holds a MOVE) keeps running
// past many silence windows: each proof hears the server on another
// connection. Meanwhile check_account does not queue behind the command:
// it answers at once, proved on another connection.
func TestSlowCommandOnALiveServerKeepsItsDeadline(t *testing.T) {
	cs, b, faults, user := holding(t, quick)
	uid := b.Seed(t, user, "INBOX", mail("slow", "a@x.org", time.Hour))
	hold := faults.HoldNext("MOVE")
	moved := callAsync(cs, "move", imapwire.MoveIn{Account: "work", UIDs: []uint32{uid}, To: "Archive"})
	<-hold.Held

	var chk imapwire.CheckAccountOut
	res := await(t, "check_account beside a held MOVE", callAsync(cs, "check_account", imapwire.AccountIn{Account: "work"}))
	mustOK(t, "check_account", res)
	if err := imapwire.Decode(res, &chk); err != nil || !chk.Busy {
		t.Fatalf("check_account beside a held MOVE: %+v (%v), want busy", chk, err)
	}
	// Several proofs while the MOVE waits: each knocks on a fresh
	// connection (no watcher here), and each knock is heard.
	knocks := b.Proxy().Accepted()
	for deadline := time.Now().Add(seenBy); b.Proxy().Accepted() < knocks+3; {
		if time.Now().After(deadline) {
			t.Fatalf("no proofs while the MOVE was held (%d connections)", b.Proxy().Accepted())
		}
		time.Sleep(20 * time.Millisecond)
	}
	hold.Release(true)
	var out imapwire.WriteOut
	res = await(t, "the held MOVE", moved)
	mustOK(t, "move", res)
	if err := imapwire.Decode(res, &out); err != nil || out.Results[0].Status != imapwire.StatusMoved {
		t.Fatalf("a slow MOVE on a live server: %s", conn.ResultText(res))
	}
}

// The server goes silent while a command is under way: check_account
// says so at once (it proves the server elsewhere), and the command ends
// with it, long before its deadline.
func TestSilenceUnderACommandIsSeenByTheProbe(t *testing.T) {
	opts := quick
	opts.SilenceAfter = time.Minute // only the probe may find it
	cs, b, faults, user := holding(t, opts)
	uid := b.Seed(t, user, "INBOX", mail("slow", "a@x.org", time.Hour))
	hold := faults.HoldNext("MOVE")
	defer hold.Release(false)
	moved := callAsync(cs, "move", imapwire.MoveIn{Account: "work", UIDs: []uint32{uid}, To: "Archive"})
	<-hold.Held
	restore := b.Proxy().Silence()
	defer restore()

	res := await(t, "check_account while silent", callAsync(cs, "check_account", imapwire.AccountIn{Account: "work"}))
	mustClass(t, "check_account", res, conn.ClassTimeout)
	res = await(t, "the MOVE the server went silent on", moved)
	var out imapwire.WriteOut
	if err := imapwire.Decode(res, &out); err != nil {
		t.Fatalf("the MOVE under a silent server: %v (%s)", err, conn.ResultText(res))
	}
	// Sent, then silence: its outcome is unknown, and it says why.
	if r := out.Results[0]; r.Status != imapwire.StatusUnknown || !strings.Contains(r.Error, "silent") {
		t.Fatalf("the MOVE under a silent server: %+v", r)
	}
}

// A read cut by a hang-up is retried once on a fresh connection, within
// what is left of the failed command's deadline: a re-dial whose greeting
// never comes does not start a deadline of its own.
func TestRetryHasOnlyTheDeadlineLeft(t *testing.T) {
	const deadline = 4 * time.Second
	opts := Options{CommandTimeout: deadline, SilenceAfter: time.Minute}
	cs, b, faults, user := holding(t, opts)
	b.Seed(t, user, "INBOX", mail("x", "a@x.org", time.Hour))
	hold := faults.HoldNext("FETCH")
	defer hold.Release(false)
	listed := callAsync(cs, "list_messages", imapwire.ListMessagesIn{Account: "work"})
	<-hold.Held
	start := time.Now()
	time.Sleep(deadline * 3 / 4) // the command has used most of its deadline
	restore := b.Proxy().Silence()
	defer restore()
	b.Proxy().Drop() // the hang-up: the retry's dial meets the silent server
	res := await(t, "the retried list", listed)
	mustClass(t, "list_messages", res, conn.ClassTimeout)
	// A deadline of its own would end at 3/4 + 1 deadlines.
	if took := time.Since(start); took >= deadline*3/2 {
		t.Fatalf("the retry took its own deadline: %s after the command began (deadline %s)", took, deadline)
	}
}
