package serveimap

import (
	"context"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// pushSession is a provider session for a fresh user of b whose client
// hears notifications/resources/updated on the returned channel.
func pushSession(t *testing.T, b imaptest.Backend, opts Options, in func(*imapwire.AddAccountIn)) (*mcp.ClientSession, string, <-chan string) {
	t.Helper()
	return pushSessionAt(t, b, opts, in, "")
}

// pushSessionAt is pushSession over a given MCP protocol version (""
// for the SDK's latest): subscriptions changed shape in 2026-07-28.
func pushSessionAt(t *testing.T, b imaptest.Backend, opts Options, in func(*imapwire.AddAccountIn), protocol string) (*mcp.ClientSession, string, <-chan string) {
	t.Helper()
	cs, user, pushed := subscribed(t, b, opts, in, protocol)
	// As the app does: the first page, and the watch starts after it.
	mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work"}, nil))
	expectPush(t, pushed, "watching") // what changed before the watch began is unknown
	return cs, user, pushed
}

// waitPush waits for a push state in check_account (the watcher is in
// place server-side: Subscribe may return before it is).
func waitPush(t *testing.T, cs *mcp.ClientSession, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var out imapwire.CheckAccountOut
		mustOK(t, "check_account", call(t, cs, "check_account", imapwire.AccountIn{Account: "work"}, &out))
		if out.Push == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("push is %q, want %q", out.Push, want)
		}
		time.Sleep(50 * time.Millisecond) // each check_account also makes the watch prove itself
	}
}

func expectPush(t *testing.T, pushed <-chan string, what string) {
	t.Helper()
	select {
	case uri := <-pushed:
		if uri != imapwire.PushURI("work", "INBOX") {
			t.Fatalf("%s: pushed %q", what, uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no push", what)
	}
	// A burst may push more than once; the next expectation starts clean.
	for {
		select {
		case <-pushed:
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

// Another client appends, flags and expunges: each reaches the app as a
// push for the folder. The watching connection is cut: it is made again
// and pushes again.
func TestPushFromIdle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user, pushed := pushSession(t, b, Options{}, nil)
		waitPush(t, cs, imapwire.PushIdle)
		other := b.Client(t, user)
		if _, err := other.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}

		uid := b.Seed(t, user, "INBOX", mail("pushed", "ann@example.org", 0))
		expectPush(t, pushed, "append")
		// The other client learns of the new message as a real one would
		// (Dovecot ignores a UID STORE for a uid its session has not seen).
		if err := other.Noop().Wait(); err != nil {
			t.Fatal(err)
		}
		if err := other.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
		expectPush(t, pushed, "flag")
		if err := other.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
		if err := other.Expunge().Close(); err != nil {
			t.Fatal(err)
		}
		expectPush(t, pushed, "expunge")

		b.Proxy().Drop()                        // the watching connection too
		expectPush(t, pushed, "watching again") // the gap: heard by no one
		waitPush(t, cs, imapwire.PushIdle)
		b.Seed(t, user, "INBOX", mail("after the cut", "ann@example.org", 0))
		expectPush(t, pushed, "append after the cut")
	})
}

// A server that hangs up on IDLE a little after it began (its inactivity
// limit, short here): with idle_restart below the limit the watcher
// re-issues IDLE in time and never loses the connection; with it above,
// the connection is lost and made again. Push works across both.
func TestPushAcrossTheServersIdleLimit(t *testing.T) {
	for _, tt := range []struct {
		name      string
		restartMS int64
		idles     int // IDLEs to wait for: past the 400 ms limit either way
		redial    bool
	}{{"restarted before the limit", 100, 5, false}, {"restarted after the limit", 60_000, 1, true}} {
		t.Run(tt.name, func(t *testing.T) {
			b := imaptest.NewMem(t, memimap.Options{IdleLimit: 400 * time.Millisecond})
			cs, user, pushed := pushSession(t, b, Options{}, func(in *imapwire.AddAccountIn) { in.IdleRestartMS = tt.restartMS })
			accepted := b.Proxy().Accepted()
			for idles := b.Srv.Idles(); b.Srv.Idles() < idles+tt.idles; {
				time.Sleep(20 * time.Millisecond)
			}
			waitPush(t, cs, imapwire.PushIdle)
			for len(pushed) > 0 { // the re-watch after a redial pushes once
				<-pushed
			}
			b.Seed(t, user, "INBOX", mail("after the limit", "ann@example.org", 0))
			expectPush(t, pushed, "append after the limit")
			if redialled := b.Proxy().Accepted() > accepted; redialled != tt.redial {
				t.Fatalf("watching connection made again: %v, want %v", redialled, tt.redial)
			}
		})
	}
}

// A server without IDLE: the watcher polls with NOOP every poll_ms, says
// so (push polling), and still pushes what it hears.
func TestPushByPolling(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, user, pushed := pushSession(t, b, Options{NoIdle: true}, func(in *imapwire.AddAccountIn) { in.PollMS = 100 })
	waitPush(t, cs, imapwire.PushPolling)
	b.Seed(t, user, "INBOX", mail("polled", "ann@example.org", 0))
	expectPush(t, pushed, "append, heard by NOOP")
	if n := b.Srv.Idles(); n != 0 {
		t.Fatalf("%d IDLEs on a server treated as without IDLE", n)
	}
}

// The SDK records a subscription only after the subscribe handler
// returns; a watch started in the handler could push "watching" before
// that, to no one, and the app would not hear what changed before the
// watch began (a flake of pushSession's first push under load). The
// handler only checks; the watch starts once the SDK has recorded it.
func TestSubscribeHandlerLeavesTheWatchToTheSDKsRecord(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := b.NewUser(t)
	s := New(Options{})
	defer s.Close()
	if _, _, err := s.addAccount(context.Background(), accountIn(b, user, pass)); err != nil {
		t.Fatal(err)
	}
	uri := imapwire.PushURI("work", "INBOX")
	if err := s.subscribe(context.Background(), &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: uri}}); err != nil {
		t.Fatal(err)
	}
	if st := s.pushState("work"); st != "" {
		t.Fatalf("the subscribe handler started a watch (push %q) before the SDK recorded the subscription", st)
	}
	if err := s.subscribe(context.Background(), &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: imapwire.PushURI("nobody", "INBOX")}}); err == nil {
		t.Fatal("subscribed to a folder of an unknown account")
	}
}

// A client of the protocol before 2026-07-28 subscribes with
// resources/subscribe, not a listen: its watch starts and pushes too, and
// unsubscribing stops it.
func TestPushOverTheLegacySubscribe(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, user, pushed := pushSessionAt(t, b, Options{}, nil, "2025-11-25")
	waitPush(t, cs, imapwire.PushIdle)
	b.Seed(t, user, "INBOX", mail("legacy", "ann@example.org", 0))
	expectPush(t, pushed, "append")
	if err := cs.Unsubscribe(context.Background(), &mcp.UnsubscribeParams{URI: imapwire.PushURI("work", "INBOX")}); err != nil {
		t.Fatal(err)
	}
	waitPush(t, cs, "")
}

// check_account covers the IDLE connection: a watching connection that
// went silent (a sleep, a NAT that forgot it) is found by the probe, not
// at the next IDLE restart half an hour later; push says it is lost, and
// comes back when the network does.
func TestCheckAccountProvesTheIdleConnection(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, user, pushed := pushSession(t, b, Options{CommandTimeout: time.Second}, nil)
	waitPush(t, cs, imapwire.PushIdle)
	restore := b.Proxy().Silence()
	call(t, cs, "check_account", imapwire.AccountIn{Account: "work"}, nil) // fails: the network is silent
	expectPush(t, pushed, "the lost watch")                                // the watch found out too, and said so
	restore()
	waitPush(t, cs, imapwire.PushIdle)
	for len(pushed) > 0 {
		<-pushed
	}
	b.Seed(t, user, "INBOX", mail("after the silence", "ann@example.org", 0))
	expectPush(t, pushed, "append after the silence")
}

// A lost watch waits out its backoff (here an hour) unless the account is
// probed: check_account tries the watch again at once, so a refresh or
// the app's probe brings push back as soon as the server lets it.
func TestProbeRetriesALostWatchAtOnce(t *testing.T) {
	faults := &memimap.Faults{}
	b := imaptest.NewMem(t, memimap.Options{Faults: faults})
	cs, _, pushed := pushSession(t, b, Options{WatchRetry: time.Hour}, nil)
	waitPush(t, cs, imapwire.PushIdle)
	faults.RefuseExamine(true)
	b.Proxy().Drop()
	expectPush(t, pushed, "the lost watch")
	waitPush(t, cs, imapwire.PushLost) // probed, and refused again
	faults.RefuseExamine(false)
	waitPush(t, cs, imapwire.PushIdle)
}

// A polling watch (no IDLE) between two NOOPs half an hour apart still
// finds its connection gone at once, and a probe makes it prove the
// connection now: push says lost, not polling on a dead connection.
func TestPollingWatchNoticesItsConnectionEnd(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, _, pushed := pushSession(t, b, Options{NoIdle: true, CommandTimeout: time.Second}, func(in *imapwire.AddAccountIn) { in.PollMS = int64(30 * time.Minute / time.Millisecond) })
	waitPush(t, cs, imapwire.PushPolling)
	b.Proxy().Drop()
	expectPush(t, pushed, "the lost polling watch")
	waitPush(t, cs, imapwire.PushPolling) // made again (the first retry comes a second later)
	restore := b.Proxy().Silence()
	defer restore()
	call(t, cs, "check_account", imapwire.AccountIn{Account: "work"}, nil) // the probe's NOOP goes unanswered
	expectPush(t, pushed, "the silent polling watch, found by the probe")
}

// subscribed is a server with the account added and its INBOX
// subscribed, nothing listed yet, and the pushes it sends.
func subscribed(t *testing.T, b imaptest.Backend, opts Options, in func(*imapwire.AddAccountIn), protocol string) (*mcp.ClientSession, string, <-chan string) {
	t.Helper()
	user, pass := b.NewUser(t)
	s := New(opts)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	pushed := make(chan string, 16)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case pushed <- req.Params.URI:
			default:
			}
		},
	}).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		s.Close()
	})
	add := accountIn(b, user, pass)
	if in != nil {
		in(&add)
	}
	mustOK(t, "add_account", call(t, cs, "add_account", add, nil))
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: imapwire.PushURI("work", "INBOX")}); err != nil {
		t.Fatal(err)
	}
	return cs, user, pushed
}
