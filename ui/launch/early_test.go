package launch_test

import (
	"io"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/store"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// A first launch (no store yet) starts every account's provider before
// Open returns, beside the store's opening: by the time a face looks, the
// account is connecting or connected without having been asked for
// anything. A later launch (the store exists) leaves them idle until the
// face asks (the TUI draws the stored rows first), as does OpenWith.
func TestFirstLaunchStartsTheProvidersAtOnce(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	path := facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")))
	t.Setenv("UNIBOX_TEST_PW", "pw")
	db, err := store.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	state := func(e *launch.Env) accounts.State {
		return e.Set.Accounts[0].Health().State
	}

	first, err := launch.Open(path, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s := state(first); s != accounts.StateConnecting && s != accounts.StateConnected {
		t.Fatalf("first launch: the account is %s, want it connecting before anything asked", s)
	}
	if first.Store == nil {
		t.Fatal("first launch: no store")
	}
	// The store reaches the accounts: a listing is remembered.
	deadline := time.Now().Add(time.Minute)
	for state(first) != accounts.StateConnected && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, _, err := first.Set.Accounts[0].Stored().SyncStepUpTo(t.Context(), "", 0); err != nil {
		t.Fatalf("sync into the store: %v", err)
	}
	first.Close()

	again, err := launch.Open(path, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if s := state(again); s != accounts.StateIdle {
		t.Fatalf("later launch (store at %s): the account is %s, want idle until asked", db, s)
	}
	with, err := launch.OpenWith(path, false, launch.StoreOpen, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer with.Close()
	if s := state(with); s != accounts.StateIdle {
		t.Fatalf("OpenWith: the account is %s, want idle", s)
	}
}
