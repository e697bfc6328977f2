package contact

import (
	"math"
	"testing"
	"time"
)

// The sum of weights in log2: adding and taking out are exact enough,
// and the order two sums give never changes as time passes (the reason
// they are kept this way).
func TestWeights(t *testing.T) {
	day := (24 * time.Hour).Milliseconds()
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	if got := Weight(now+100*day, now); got != Weight(now, now) {
		t.Fatalf("a future date weighs %v, not now's %v", got, Weight(now, now))
	}
	if got := Weight(-5, now); got != 0 {
		t.Fatalf("no date weighs %v", got)
	}
	if d := Weight(now, now) - Weight(now-HalfLife.Milliseconds(), now); math.Abs(d-1) > 1e-9 {
		t.Fatalf("HalfLife halves the weight: log2 difference %v", d)
	}
	// Frequent but old against rare but new, judged at two times.
	frequent, recent := NoWeight, NoWeight
	for i := range 10 {
		frequent = LogAdd(frequent, Weight(now-int64(200+i)*day, now))
	}
	recent = LogAdd(recent, Weight(now-2*day, now))
	if !(recent > frequent) {
		t.Fatalf("one message two days ago (%v) should outweigh ten seven months ago (%v)", recent, frequent)
	}
	sum := LogAdd(LogAdd(Weight(now, now), Weight(now-day, now)), Weight(now-2*day, now))
	back := LogSub(sum, Weight(now-day, now))
	if want := LogAdd(Weight(now, now), Weight(now-2*day, now)); math.Abs(back-want) > 1e-9 {
		t.Fatalf("LogSub: %v, want %v", back, want)
	}
	if got := LogSub(Weight(now, now), Weight(now, now)); !math.IsInf(got, -1) {
		t.Fatalf("taking out the whole sum leaves %v", got)
	}
	if got := LogAdd(NoWeight, 3); got != 3 {
		t.Fatalf("LogAdd(none, 3) = %v", got)
	}
	for _, tier := range []Tier{TierWritten, TierHeard, TierBulk, 9} {
		if tier.String() == "" {
			t.Fatalf("tier %d has no name", tier)
		}
	}
}
