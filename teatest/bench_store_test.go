package teatest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/unibin"
	"unibox/model"
	"unibox/ui/tui"
)

// benchStored is how many messages each account has stored: 10,000 with
// UNIBOX_BENCH_FULL=1 (the figures for notes), fewer for CI's smoke run.
func benchStored() int {
	if os.Getenv("UNIBOX_BENCH_FULL") == "1" {
		return 10000
	}
	return 500
}

// storedFixture writes a store file holding n accounts × per messages,
// keyed as accounts.Open keys accounts on a hung server (no listing ever
// answers), and returns the config and the file.
func storedFixture(b *testing.B, n, per int) (*config.Config, string) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "store.db")
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	port := imaptest.HungServer(b)
	cfg := &config.Config{}
	for a := range n {
		name := fmt.Sprintf("Acct%02d", a)
		cfg.Accounts = append(cfg.Accounts, config.Account{Name: name, Kind: "imap", Host: "127.0.0.1", Port: port, Security: "none", Username: "sam"})
		msgs := make([]model.Message, per)
		for i := range per {
			uid := uint32(per - i)
			msgs[i] = model.Message{ID: model.MessageID{Account: name, Folder: "INBOX", UIDValidity: 1, UID: uid},
				MessageID: fmt.Sprintf("%d.%s@example.org", uid, name), From: model.Address{Name: "Sender " + strconv.Itoa(i%97), Address: "s@example.org"},
				To: []model.Address{{Address: "sam@example.org"}}, Subject: fmt.Sprintf("%s message %d about the quarterly plan", name, uid),
				Date: now.Add(-time.Duration(i) * time.Minute), Seen: i%3 == 0, Size: 4000}
		}
		if err := st.Save(context.Background(), store.Key{Name: name, Host: "127.0.0.1", User: "sam"},
			store.Listing{Folder: "INBOX", UIDValidity: 1, Total: uint32(per), Messages: msgs, More: false, At: now, Inbox: true}); err != nil {
			b.Fatal(err)
		}
	}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	return cfg, path
}

// launchFromStore times one launch: open the store and the accounts, start
// the TUI, until the newest row of the last account is on screen. No
// server answers: the rows can only come from the store.
func launchFromStore(b *testing.B, cfg *config.Config, path string, want string) time.Duration {
	b.Helper()
	start := time.Now()
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(b),
		Store: accounts.Have(st), Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		b.Fatal(err)
	}
	m, _ := tui.New(tui.Options{Accounts: uiAccounts(set), Now: func() time.Time { return now }, NoTick: true})
	tm := teatest.NewTestModel(b, m, teatest.WithInitialTermSize(120, 40))
	teatest.WaitFor(b, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte(want)) },
		teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(time.Millisecond))
	took := time.Since(start)
	tm.Quit()
	m.Close()
	set.Close()
	st.Close()
	return took
}

// BenchmarkLaunchFromStore: from opening the store to the first rows on
// screen, 3 accounts × 10,000 stored messages (UNIBOX_BENCH_FULL=1), every
// server hung (goal ≤ 50 ms); and 20 accounts against 1 (goal ≤ 1.2x).
func BenchmarkLaunchFromStore(b *testing.B) {
	for _, n := range []int{1, 3, 20} {
		per := benchStored()
		if n == 20 {
			per /= 5
		}
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			cfg, path := storedFixture(b, n, per)
			want := fmt.Sprintf("Acct%02d message %d about", n-1, per)
			var total time.Duration
			for b.Loop() {
				total += launchFromStore(b, cfg, path, want)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/launch")
		})
	}
}
