package teatest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/ui/tui"
)

// BenchmarkKeyEchoWhileFetchingBodies: key echo in the TUI (a key typed
// into the `/` filter until its character is on the screen) with the
// background body fetch idle (the baseline) and while it fetches and
// indexes the bodies of 2,000 stored messages of 300 words (500 with
// -short) through the real serve-imap child, unpaced (the worst case for
// the screen), in one run. Reports each phase's median,
// p95 and worst echo, the ratio of the medians, and the fetch's messages
// indexed per second. The goal:
// echo under 50 ms while indexing.
func BenchmarkKeyEchoWhileFetchingBodies(b *testing.B) {
	n := 2000
	if testing.Short() {
		n = 500
	}
	mem := imaptest.NewMem(b, memimap.Options{})
	user, pass := mem.NewUser(b)
	r := rand.New(rand.NewPCG(38, 3))
	words := strings.Fields("the report meeting budget quarter numbers draft plan review team schedule project customer invoice order " +
		"shipping delivery account payment travel hotel flight agenda notes summary update question answer thanks regards")
	for i := range n {
		var body strings.Builder
		for w := range 300 {
			if w > 0 {
				body.WriteByte(' ')
			}
			body.WriteString(words[r.IntN(len(words))])
		}
		mem.Seed(b, user, "INBOX", imaptest.Mail{From: fmt.Sprintf("Sender %d <s%d@example.org>", i%50, i%50), To: "me@example.org",
			Subject: fmt.Sprintf("message %d", i), Date: time.Now().Add(-time.Duration(n-i) * time.Minute), Body: body.String()}.Bytes())
	}
	st, err := store.Open(filepath.Join(b.TempDir(), "store.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cfg := &config.Config{Accounts: []config.Account{{Name: "Home", Kind: "imap", Host: mem.Host(), Port: mem.Port(), Security: "none", Username: user}}}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	cfg.Store = config.Store{CacheBodies: config.Bodies{Keep: config.BodiesAll}, CacheBodiesMaxMB: 500, BodyFetchKBps: 1 << 20}
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(b),
		Store: accounts.Have(st), Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return pass, nil }
		}})
	if err != nil {
		b.Fatal(err)
	}
	defer set.Close()
	a := set.Accounts[0]
	if err := a.Sync(context.Background(), "", nil); err != nil {
		b.Fatal(err)
	}
	m, err := tui.New(tui.Options{Accounts: uiAccounts(set), Now: func() time.Time { return now }, NoTick: true})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	tm := teatest.NewTestModel(b, m, teatest.WithInitialTermSize(100, 30))
	defer tm.Quit()
	teatest.WaitFor(b, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte("message "+fmt.Sprint(n-1))) },
		teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(time.Millisecond))

	// echo types one character into the open filter and waits for the
	// prompt to show everything typed so far.
	typed := ""
	echo := func() time.Duration {
		if len(typed) == 40 { // the prompt is cut to the width: start it again
			tm.Send(key("esc"))
			tm.Send(key("/"))
			typed = ""
		}
		c := string(rune('a' + len(typed)%26))
		typed += c
		start := time.Now()
		tm.Send(key(c))
		teatest.WaitFor(b, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte("/"+typed)) },
			teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(time.Millisecond))
		return time.Since(start)
	}
	phase := func(until func() bool) []time.Duration {
		tm.Send(key("/"))
		typed = ""
		var took []time.Duration
		for len(took) < 10 || !until() && len(took) < 200 {
			took = append(took, echo())
		}
		tm.Send(key("esc"))
		return took
	}
	var idle, busy []time.Duration
	var rates []float64
	for b.Loop() {
		if _, err := st.DropBodies(context.Background(), store.Key{Name: "Home", Host: mem.Host(), User: user}); err != nil {
			b.Fatal(err)
		}
		idle = append(idle, phase(func() bool { return true })...)
		var mu sync.Mutex
		stored, began, done := 0, time.Time{}, time.Time{}
		stop := set.FetchBodies(accounts.BodyFetchOptions{Observe: func(e accounts.BodyEvent) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case e.Kind == accounts.BodyBatch && began.IsZero():
				began = time.Now()
				stored += e.Stored
			case e.Kind == accounts.BodyBatch:
				stored += e.Stored
			case e.Kind == accounts.BodyIdle && done.IsZero():
				done = time.Now()
			}
		}})
		fetched := func() bool { mu.Lock(); defer mu.Unlock(); return !done.IsZero() }
		busy = append(busy, phase(fetched)...)
		for !fetched() {
			time.Sleep(10 * time.Millisecond)
		}
		stop()
		mu.Lock()
		rates = append(rates, float64(stored)/done.Sub(began).Seconds())
		mu.Unlock()
	}
	med := func(d []time.Duration) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[len(s)/2].Microseconds()) / 1000
	}
	worst := func(d []time.Duration) float64 { return float64(slices.Max(d).Microseconds()) / 1000 }
	p95 := func(d []time.Duration) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[len(s)*95/100].Microseconds()) / 1000
	}
	b.ReportMetric(med(idle), "echo-idle-p50-ms")
	b.ReportMetric(p95(idle), "echo-idle-p95-ms")
	b.ReportMetric(worst(idle), "echo-idle-max-ms")
	b.ReportMetric(med(busy), "echo-fetching-p50-ms")
	b.ReportMetric(p95(busy), "echo-fetching-p95-ms")
	b.ReportMetric(worst(busy), "echo-fetching-max-ms")
	b.ReportMetric(med(busy)/med(idle), "echo-p50-ratio")
	b.ReportMetric(slices.Min(rates), "indexed-msgs/s")
	b.Logf("%d echoes idle, %d while fetching; indexing %.0f msgs/s", len(idle), len(busy), rates)
}
