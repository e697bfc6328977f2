package accounts

import (
	"fmt"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model/rules"
)

// BenchmarkRuleOnArrival: a message arrives and is synced (as a push's
// sync step does) with a rule that archives it, beside the same step for
// a message no rule matches (the baseline), in the same run: ms/ruled -
// ms/unruled is the time from the message stored to its rule applied
// (the claim in rules.db, the MOVE, the settle), since the rule runs in
// the step that stores it.
func BenchmarkRuleOnArrival(b *testing.B) {
	mem := imaptest.NewMem(b, memimap.Options{})
	r := newRuled(b, mem)
	r.rule = []rules.Rule{{Name: "news", Action: rules.Archive, Match: rules.Match{From: mustPattern(b, "*@news.example")}}}
	ctx := b.Context()
	if err := r.a.Sync(ctx, "", nil); err != nil {
		b.Fatal(err)
	}
	step := func(from string, i int) time.Duration {
		r.mem.Seed(b, r.user, "INBOX", imaptest.Mail{From: from, To: "sam@x.org", Subject: fmt.Sprint("m", i), Date: time.Now(),
			MessageID: fmt.Sprintf("bench%d.%d@x", i, time.Now().UnixNano()), Body: "x"}.Bytes())
		start := time.Now()
		if err := r.a.Sync(ctx, "", nil); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var ruled, unruled time.Duration
	n := 0
	for b.Loop() {
		ruled += step("letters@news.example", 2*n)
		unruled += step("friend@home.example", 2*n+1)
		n++
	}
	b.ReportMetric(float64(ruled.Microseconds())/float64(n)/1000, "ms/ruled")
	b.ReportMetric(float64(unruled.Microseconds())/float64(n)/1000, "ms/unruled")
}

// BenchmarkScreenerOnArrival: a new sender's message arrives and is
// synced in an account whose screener is on (judged, marked, its
// Authentication-Results read) beside one without a screener, in the same
// run: ms/screened - ms/plain is what the screener costs per step.
func BenchmarkScreenerOnArrival(b *testing.B) {
	mem := imaptest.NewMem(b, memimap.Options{})
	plain := newRuled(b, mem)
	screened := newRuled(b, mem)
	screened.screen = true
	screened.a = screened.open(b, "screened.db")
	ctx := b.Context()
	for _, r := range []*ruled{plain, screened} {
		if err := r.a.Sync(ctx, "", nil); err != nil {
			b.Fatal(err)
		}
	}
	step := func(r *ruled, i int) time.Duration {
		r.mem.Seed(b, r.user, "INBOX", imaptest.Mail{From: fmt.Sprintf("new%d@stranger.example", i), To: "sam@x.org", Subject: fmt.Sprint("m", i), Date: time.Now(),
			MessageID: fmt.Sprintf("scr%d.%d@x", i, time.Now().UnixNano()), Body: "x"}.Bytes())
		start := time.Now()
		if err := r.a.Sync(ctx, "", nil); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var withScreener, without time.Duration
	n := 0
	for b.Loop() {
		withScreener += step(screened, n)
		without += step(plain, n)
		n++
	}
	b.ReportMetric(float64(withScreener.Microseconds())/float64(n)/1000, "ms/screened")
	b.ReportMetric(float64(without.Microseconds())/float64(n)/1000, "ms/plain")
}
