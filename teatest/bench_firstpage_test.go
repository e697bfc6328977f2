package teatest

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts/store"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/tui"
)

// BenchmarkFirstScreen: from opening the store and the accounts to the
// TUI's first rows of three accounts (the newest message of each on
// screen), through real serve-imap children to three in-process servers
// of 1,000 messages each, at 80x24, three ways in each iteration:
//   - list50: no store, each account's newest 50 listed (the launch the
//     store must not make slower);
//   - cold: an empty store, a first sync (its first step a screen's rows);
//   - warm: a store synced whole, drawn at once, then synced.
//
// The figures are ms per launch and each store launch as a ratio to
// list50 in the same run (goal: cold ≤ 1x).
func BenchmarkFirstScreen(b *testing.B) {
	names := []string{"Home", "Work", "Club"}
	var ports []int
	for _, n := range names {
		ports = append(ports, fillMem(b, memimap.Options{}, n, 1000, now).Port())
	}
	warm := filepath.Join(b.TempDir(), "warm.db")
	syncWhole(b, warm, names, ports)
	want := []string{"Home 999", "Work 999", "Club 999"}
	var list50, cold, hot time.Duration
	i := 0
	for b.Loop() {
		// The three in turn, each first as often as the others: what one
		// leaves behind (children exiting) weighs on all alike.
		launches := []func(){
			func() { list50 += firstScreen(b, "", names, ports, want) },
			func() { cold += firstScreen(b, filepath.Join(b.TempDir(), "cold.db"), names, ports, want) },
			func() { hot += firstScreen(b, warm, names, ports, want) },
		}
		for j := range launches {
			launches[(i+j)%len(launches)]()
		}
		i++
	}
	n := float64(b.N)
	b.ReportMetric(float64(list50.Microseconds())/1000/n, "ms-list50")
	b.ReportMetric(float64(cold.Microseconds())/1000/n, "ms-cold")
	b.ReportMetric(float64(hot.Microseconds())/1000/n, "ms-warm")
	b.ReportMetric(float64(cold)/float64(list50), "cold/list50")
	b.ReportMetric(float64(hot)/float64(list50), "warm/list50")
}

// syncWhole syncs every account's inbox into the store file at path.
func syncWhole(b *testing.B, path string, names []string, ports []int) {
	b.Helper()
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	set := openMemStored(b, st, names, ports)
	defer set.Close()
	for _, a := range set.Accounts {
		if err := a.Sync(context.Background(), "", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// firstScreen times one launch, from opening the store (path; "": none)
// and the accounts until every one of want is on screen.
func firstScreen(b *testing.B, path string, names []string, ports []int, want []string) time.Duration {
	b.Helper()
	start := time.Now()
	var st *store.Store
	if path != "" {
		var err error
		if st, err = store.Open(path); err != nil {
			b.Fatal(err)
		}
		defer st.Close()
	}
	set := openMemStored(b, st, names, ports)
	defer set.Close()
	m, err := tui.New(tui.Options{Accounts: uiAccounts(set), Now: func() time.Time { return now }, NoTick: true})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	tm := teatest.NewTestModel(b, m, teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(b, tm.Output(), func(out []byte) bool {
		for _, w := range want {
			if !bytes.Contains(out, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(time.Millisecond))
	took := time.Since(start)
	if err := tm.Quit(); err != nil {
		b.Fatal(fmt.Errorf("quit: %w", err))
	}
	return took
}
