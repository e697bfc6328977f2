package accounts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"unibox/accounts/config"
	"unibox/accounts/store"
)

// Neither a history folder that cannot be made nor a store that could not
// be opened stops an account: Open succeeds, the account's health says
// why each is off, and a sync (which is for the store) fails with a store
// error instead of passing for done.
func TestTroubleIsNoReasonNotToOpen(t *testing.T) {
	file := filepath.Join(t.TempDir(), "unibox")
	if err := os.WriteFile(file, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: 1, Security: "none", Username: "sam"}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	set, err := Open(cfg, Options{Exe: testExe(t), ExeArgs: []string{}, ChildEnv: []string{}, History: Have(filepath.Join(file, "Work")),
		Store: Off[*store.Store](errors.New("mkdir /cache/unibox: read-only file system"))})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer set.Close()
	a := set.Accounts[0]
	h := a.Health()
	if h.History != "off: mkdir "+file+": not a directory" {
		t.Fatalf("history %q", h.History)
	}
	if h.Store != "off: mkdir /cache/unibox: read-only file system" {
		t.Fatalf("store %q", h.Store)
	}
	_, _, err = a.Stored().SyncStep(context.Background(), "")
	if !IsStoreError(err) || errors.Is(err, ErrNoSync) {
		t.Fatalf("a sync without its store: %v", err)
	}
	if d := HealthOf(a, a.Status(), err, h.Since); d.ErrorClass != ClassStore || d.Error != "store: off: mkdir /cache/unibox: read-only file system" {
		t.Fatalf("described as %q %q", d.ErrorClass, d.Error)
	}
	a.hist.Add("listing", "", "", "kept in memory") // no file: no failure to write one
	if got := a.History(10); len(got) == 0 || a.Health().History != h.History {
		t.Fatalf("history in memory %v, health %q", got, a.Health().History)
	}
}
