package teatest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/store"
	"unibox/ui/tui"
)

// openStored opens one account on d for alice, remembering its mail in the
// store file at path, through a real provider child.
func openStored(t *testing.T, d imaptest.Backend, path string) (*accounts.Set, *store.Store) {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Accounts: []config.Account{{Name: "Home", Kind: "imap", Host: d.Host(), Port: d.Port(), Security: "none", Username: "alice"}}}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	exe, _ := os.Executable()
	set, err := accounts.Open(cfg, accounts.Options{Exe: exe, ExeArgs: []string{}, ChildEnv: []string{"UNIBOX_TEST_SERVE_IMAP=1", "GORACE=atexit_sleep_ms=0"},
		Store: st, Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "alice-pw", nil }
		}})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return set, st
}

// Offline start: a first run lists the account and quits; the server
// stops; a second run draws the same rows from the store at once, marked
// stale, with the badge saying the account is not connected.
func TestOfflineStartFromStore(t *testing.T) {
	d := imaptest.StartDovecot(t)
	d.NewUser(t)
	for _, s := range []string{"Boarding pass", "Dentist on Tuesday", "Photos from the trip"} {
		d.Seed(t, "alice", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: s, Date: time.Now().Add(-time.Hour), Body: "x"}.Bytes())
	}
	path := filepath.Join(t.TempDir(), "store.db")

	set, st := openStored(t, d, path)
	tm, m := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now = nil })
	waitFor(t, tm, "Photos from the trip", "Home ● connected")
	_ = tm.Quit()
	m.Close()
	set.Close()
	st.Close()

	d.Stop(t)
	set, st = openStored(t, d, path)
	defer st.Close()
	defer set.Close()
	tm, _ = run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now = nil })
	waitFor(t, tm, "~ Home", "Boarding pass", "Dentist on Tuesday", "Photos from the trip", "Home ⏸ cooling down")
}
