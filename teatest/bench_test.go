package teatest

import (
	"bytes"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/demo"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/unibin"
	"unibox/ui/tui"
)

// BenchmarkLaunchToFirstRows: from starting the TUI on three loopback
// accounts (fresh provider children) to their rows on screen (goal
// ≤ 200 ms); and the same with one account's server hung, timing the
// other two accounts' rows.
func BenchmarkLaunchToFirstRows(b *testing.B) {
	for _, tc := range []struct {
		name string
		hung bool
		want []string
	}{{"3-accounts", false, []string{"3 of 3 accounts · 65 messages"}}, {"one-hung", true, []string{"Atlas CI", "Helen Rivera"}}} {
		b.Run(tc.name, func(b *testing.B) {
			d, err := demo.Start(now, demo.Schedule{})
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			cfg := *d.Config()
			cfg.Accounts = append([]config.Account(nil), cfg.Accounts...)
			if tc.hung {
				cfg.Accounts[2].Port = imaptest.HungServer(b)
			}
			exe := unibin.Exe(b)
			var total time.Duration
			for b.Loop() {
				set, err := accounts.Open(&cfg, accounts.Options{Exe: exe, Password: d.Password})
				if err != nil {
					b.Fatal(err)
				}
				m, _ := tui.New(tui.Options{Accounts: uiAccounts(set), Now: func() time.Time { return now }, NoTick: true})
				start := time.Now()
				tm := teatest.NewTestModel(b, m, teatest.WithInitialTermSize(80, 24))
				teatest.WaitFor(b, tm.Output(), func(out []byte) bool {
					for _, w := range tc.want {
						if !bytes.Contains(out, []byte(w)) {
							return false
						}
					}
					return true
				}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(time.Millisecond))
				total += time.Since(start)
				tm.Quit()
				m.Close()
				set.Close()
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/launch")
		})
	}
}
