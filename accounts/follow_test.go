package accounts

import (
	"context"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// followAccount is one account on a memimap user with the folders a
// test follows.
func followAccount(t *testing.T, folders ...string) (*Account, *memimap.Server) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	fs := map[string]imap.MailboxAttr{}
	for _, f := range folders {
		fs[f] = ""
	}
	if err := srv.AddUser("sam", "pw", fs); err != nil {
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
	return set.Accounts[0], srv
}

func seedIn(t *testing.T, srv *memimap.Server, folder, subject string) {
	t.Helper()
	raw := imaptest.Mail{From: "a@x.org", To: "sam@x.org", Subject: subject, Date: time.Now(), Body: "x"}.Bytes()
	if _, err := srv.Append("sam", folder, raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// waitUntil waits for cond, failing with what after a generous bound.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitPush(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatal(what)
	}
}

// A followed folder's changes are pushed on their own channel while the
// inbox's still come on Pushes; visiting folder after folder holds one
// more IMAP connection, never one per folder visited (the server counts
// them: its per-user limit is what this protects).
func TestFollowOneFolderAtATime(t *testing.T) {
	a, srv := followAccount(t, "Lists", "Receipts", "Travel")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{Limit: 5}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the inbox watch never began IDLE", func() bool { return srv.Idles() >= 1 })
	waitPush(t, a.Watching().Pushes(), "no push when the inbox watch began")
	base := srv.Conns() // the child's connection for calls, and the inbox's watch
	for i, folder := range []string{"Lists", "Receipts", "Travel", "Lists"} {
		idles := srv.Idles()
		if err := a.Watching().Follow(ctx, folder); err != nil {
			t.Fatalf("follow %s: %v", folder, err)
		}
		if got := a.Watching().Followed(); got != folder {
			t.Fatalf("Followed() = %q, want %q", got, folder)
		}
		waitPush(t, a.Watching().FolderPushes(), folder+": no push when its watch began")
		waitUntil(t, folder+": its watch never began IDLE", func() bool { return srv.Idles() > idles })
		seedIn(t, srv, folder, "new in "+folder)
		waitPush(t, a.Watching().FolderPushes(), folder+": no push after new mail in it")
		waitUntil(t, "visit "+string(rune('1'+i))+": the server holds more than one connection besides the inbox's", func() bool {
			return srv.Conns() <= base+1
		})
		if i == 1 {
			seedIn(t, srv, "INBOX", "new in the inbox")
			waitPush(t, a.Watching().Pushes(), "no inbox push while a folder is followed")
		}
	}
	if err := a.Watching().Follow(ctx, "INBOX"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "following the inbox again kept the folder's connection", func() bool { return srv.Conns() <= base })
}

// A push is routed by the folder its uri names: the inbox's (however it
// is spelt) to Pushes, any other folder's to FolderPushes.
func TestFollowRoutesPushes(t *testing.T) {
	inbox := make(chan struct{}, 1)
	f := newFollow(func(folder string) string { return imapwire.PushURI("Work", folder) })
	folderOf := func(uri string) (string, bool) { _, fo, err := imapwire.ParsePushURI(uri); return fo, err == nil }
	for _, tt := range []struct {
		uri       string
		toFollowd bool
	}{
		{imapwire.PushURI("Work", "INBOX"), false},
		{imapwire.PushURI("Work", "inbox"), false},
		{imapwire.PushURI("Work", "Lists"), true},
		{imapwire.PushURI("Work", "INBOX/Sub"), true},
		{"something://else", false},
	} {
		got := f.routes(folderOf, tt.uri, inbox)
		if (got == f.pushes) != tt.toFollowd {
			t.Errorf("%s: to the followed folder = %v, want %v", tt.uri, got == f.pushes, tt.toFollowd)
		}
	}
}

// A new child (the old one killed) follows the folder the old one did:
// the subscription is made again on connect, beside the inbox's.
func TestFollowSurvivesANewChild(t *testing.T) {
	a, srv := followAccount(t, "Lists")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := a.Watching().Follow(ctx, "Lists"); err != nil {
		t.Fatal(err)
	}
	waitPush(t, a.Watching().FolderPushes(), "no push when the folder's watch began")
	for _, pid := range imaptest.ChildPIDs() {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	waitUntil(t, "the killed child's connections stayed", func() bool { return srv.Conns() == 0 })
	idles := srv.Idles()
	if _, err := a.List(ctx, ListOptions{Limit: 5}); err != nil { // a new child
		t.Fatal(err)
	}
	waitPush(t, a.Watching().FolderPushes(), "the new child does not watch the followed folder")
	waitUntil(t, "the new child's watches never began IDLE", func() bool { return srv.Idles() >= idles+2 })
	seedIn(t, srv, "Lists", "after the new child")
	waitPush(t, a.Watching().FolderPushes(), "no push of the followed folder after a new child")
	if got := a.Watching().Followed(); got != "Lists" {
		t.Fatalf("Followed() = %q after a new child", got)
	}
}

// Calls side by side: the folder asked for last is followed, whichever
// call takes the lock last (a face going from folder to folder runs its
// calls in goroutines of their own).
func TestFollowLastAskedWins(t *testing.T) {
	a, srv := followAccount(t, "Lists", "Receipts")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{Limit: 5}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the inbox watch never began IDLE", func() bool { return srv.Idles() >= 1 })
	base := srv.Conns()
	f := a.follow
	f.switching.Lock() // a call under way: the next ones wait
	done := make(chan error, 1)
	go func() { done <- a.Watching().Follow(ctx, "Lists") }()
	waitUntil(t, "Follow(Lists) never asked", func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.want == "Lists" })
	f.mu.Lock()
	f.want = "Receipts" // a later call asked for Receipts, and waits its turn
	f.mu.Unlock()
	f.switching.Unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := a.Watching().Followed(); got != "Receipts" {
		t.Fatalf("Followed() = %q, want the folder asked for last", got)
	}
	waitPush(t, a.Watching().FolderPushes(), "Receipts is not watched")
	waitUntil(t, "more than one connection besides the inbox's", func() bool { return srv.Conns() <= base+1 })
}

// Back in the inbox while the account is down: ending the folder's
// subscription needs no session (there is none to end it on), and the
// next session does not watch the folder.
func TestUnfollowWhileDown(t *testing.T) {
	a, srv := followAccount(t, "Lists")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{Limit: 5}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the inbox watch never began IDLE", func() bool { return srv.Idles() >= 1 })
	base := srv.Conns()
	if err := a.Watching().Follow(ctx, "Lists"); err != nil {
		t.Fatal(err)
	}
	waitPush(t, a.Watching().FolderPushes(), "no push when the folder's watch began")
	srv.Refuse()
	for _, pid := range imaptest.ChildPIDs() {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	waitUntil(t, "the killed child's connections stayed", func() bool { return srv.Conns() == 0 })
	if _, err := a.List(ctx, ListOptions{Limit: 5}); err == nil {
		t.Fatal("listed while the server refuses")
	}
	if err := a.Watching().Follow(ctx, ""); err != nil {
		t.Fatalf("back to the inbox while down: %v", err)
	}
	if got := a.Watching().Followed(); got != "" {
		t.Fatalf("Followed() = %q after going back to the inbox", got)
	}
	if err := srv.Accept(); err != nil {
		t.Fatal(err)
	}
	if err := a.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.List(ctx, ListOptions{Limit: 5}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the new child's inbox watch never began", func() bool { return srv.Conns() >= base })
	seedIn(t, srv, "Lists", "unwatched")
	seedIn(t, srv, "INBOX", "watched")
	waitPush(t, a.Watching().Pushes(), "no inbox push after the account came back")
	if n := srv.Conns(); n > base {
		t.Fatalf("%d connections after coming back, want %d: the folder is still watched", n, base)
	}
}
