package teatest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// benchFolderSize is how many messages the benchmarks' INBOX and Big
// folder each hold: 100,000 with UNIBOX_BENCH_FULL=1 (the figures for
// notes), fewer for CI's smoke run.
func benchFolderSize() int {
	if os.Getenv("UNIBOX_BENCH_FULL") == "1" {
		return 100000
	}
	return 2000
}

// folderFixture is a store holding n messages in INBOX and n in Big for
// one account on a hung server: whatever shows can only come from the
// store.
func folderFixture(b *testing.B, n int) (*config.Config, string) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "store.db")
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	port := imaptest.HungServer(b)
	const name = "Acct00"
	cfg := &config.Config{Accounts: []config.Account{{Name: name, Kind: "imap", Host: "127.0.0.1", Port: port, Security: "none", Username: "sam"}}}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	for _, folder := range []string{"INBOX", "Big"} {
		const page = 5000
		for top := n; top > 0; top -= page {
			var msgs []model.Message
			for uid := top; uid > max(top-page, 0); uid-- {
				msgs = append(msgs, model.Message{ID: model.MessageID{Account: name, Folder: folder, UIDValidity: 1, UID: uint32(uid)},
					MessageID: fmt.Sprintf("%d.%s@example.org", uid, folder), From: model.Address{Name: "Sender", Address: "s@example.org"},
					Subject: fmt.Sprintf("%s message %d about the plan", folder, uid), Date: now.Add(-time.Duration(n-uid) * time.Minute), Seen: uid%3 == 0, Size: 4000})
			}
			before := uint32(0)
			if top < n {
				before = uint32(top + 1)
			}
			if err := st.Save(context.Background(), store.Key{Name: name, Host: "127.0.0.1", User: "sam"},
				store.Listing{Folder: folder, UIDValidity: 1, Total: uint32(n), Messages: msgs, More: top-page > 0, BeforeUID: before, At: now, Inbox: folder == "INBOX"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return cfg, path
}

// BenchmarkOpenFolderFromStore: a 100,000-message folder opens from the
// store as the inbox of the same size does (UNIBOX_BENCH_FULL=1).
// stored-ms: the account's read of its newest page (Cached), the folder's
// against INBOX's (ratio, goal ≤ 1.2); folders-ms: the picker's stored
// list with unread counts over both; key-to-screen-ms: o, the folder's
// name, enter, until its newest row is on screen, the server hung.
func BenchmarkOpenFolderFromStore(b *testing.B) {
	n := benchFolderSize()
	cfg, path := folderFixture(b, n)
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(b),
		Store: accounts.Have(st), Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		b.Fatal(err)
	}
	defer set.Close()
	a := set.Accounts[0]
	ctx := context.Background()
	timed := func(f func() error) time.Duration {
		start := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for _, f := range []string{"", "Big"} { // both read once: neither is timed cold
		if _, _, err := a.Stored().Cached(ctx, f, 50); err != nil {
			b.Fatal(err)
		}
	}
	var inbox, folder, folders, screen time.Duration
	for b.Loop() {
		inbox += timed(func() error { _, _, err := a.Stored().Cached(ctx, "", 50); return err })
		folder += timed(func() error {
			p, _, err := a.Stored().Cached(ctx, "Big", 50)
			if err == nil && (len(p.Messages) != 50 || p.Messages[0].ID.UID != uint32(n)) {
				err = fmt.Errorf("Big's newest page: %d rows", len(p.Messages))
			}
			return err
		})
		folders += timed(func() error {
			fs, err := a.Stored().Folders(ctx)
			if err == nil && len(fs) != 2 {
				err = fmt.Errorf("stored folders: %v", fs)
			}
			return err
		})
		screen += openFolderOnScreen(b, set, fmt.Sprintf("Big message %d about", n))
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(per(inbox), "inbox-stored-ms")
	b.ReportMetric(per(folder), "folder-stored-ms")
	b.ReportMetric(float64(folder)/float64(inbox), "folder/inbox")
	b.ReportMetric(per(folders), "folders-ms")
	b.ReportMetric(per(screen), "key-to-screen-ms")
}

// openFolderOnScreen starts the TUI, opens Big with o and times the key
// press to the folder's newest row on screen.
func openFolderOnScreen(b *testing.B, set *accounts.Set, want string) time.Duration {
	b.Helper()
	m, _ := tui.New(tui.Options{Accounts: uiAccounts(set), Now: func() time.Time { return now }, NoTick: true})
	tm := teatest.NewTestModel(b, m, teatest.WithInitialTermSize(120, 40))
	defer func() { _ = tm.Quit(); m.Close() }()
	wait := func(s string) {
		teatest.WaitFor(b, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte(s)) },
			teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(time.Millisecond))
	}
	wait("INBOX message")
	tm.Send(key("o"))
	wait("Big")
	tm.Send(key("/"))
	typeText(tm, "big")
	start := time.Now()
	tm.Send(key("enter"))
	wait(want)
	return time.Since(start)
}
