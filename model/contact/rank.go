package contact

import (
	"math"
	"time"
)

// How the index ranks (issue 38): the addresses the person wrote to
// first, then those that only wrote to the person, then mailing lists and
// robots; within each, by how often and how recently, a message's weight
// halving every HalfLife.
//
// The weights are kept as log2 of a sum of 2^(date/HalfLife): every
// address's sum grows by the same factor as time passes, so the order
// they give never changes with the clock, and the store can keep the sum
// as rows come and go without touching the other rows.

// Tier is how much the person's own mail vouches for an address.
type Tier int

const (
	// TierWritten: the person wrote to it (a message in Sent from one of
	// their own addresses, or the outbox's sent-to record).
	TierWritten Tier = iota
	// TierHeard: it wrote to the person, who never wrote back.
	TierHeard
	// TierBulk: a mailing list or a robot (no-reply, notifications):
	// last, whoever wrote to whom.
	TierBulk
)

func (t Tier) String() string {
	switch t {
	case TierWritten:
		return "written"
	case TierHeard:
		return "heard"
	case TierBulk:
		return "bulk"
	}
	return "unknown"
}

// HalfLife is how long a message takes to count half as much. A week:
// whom the person is writing with these days outranks whom they wrote
// to often last year (replaying a generated Sent folder, a month's half
// life put the intended recipient in the top 3 for 1.2 % fewer messages
// than a week's, and a day's gained 0.1 % more), and a correspondent of
// years still adds up.
const HalfLife = 7 * 24 * time.Hour

// NoWeight is the weight of nothing (an empty sum): below every real one.
var NoWeight = math.Inf(-1)

// Weight is log2 of the weight of one message dated at (unix ms). A date
// in the future counts as now (dated by a sender's clock, or to stay on
// top), and no date as the oldest.
func Weight(at, now int64) float64 {
	return float64(max(min(at, now), 0)) / float64(HalfLife.Milliseconds())
}

// LogAdd is log2(2^a + 2^b): a sum of weights with one more added.
func LogAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log2(1+math.Exp2(b-a))
}

// lostBits is how far below the sum a difference is taken as lost to
// rounding (float64 keeps 52 bits).
const lostBits = 40

// LogSub is log2(2^a - 2^b): a sum of weights with one taken out. What
// rounding cannot tell from nothing (b the whole sum, or more) is
// NoWeight; the store drops a row whose count reaches zero anyway.
func LogSub(a, b float64) float64 {
	if math.IsInf(b, -1) {
		return a
	}
	d := 1 - math.Exp2(b-a)
	if d <= math.Exp2(-lostBits) {
		return NoWeight
	}
	return a + math.Log2(d)
}

// Entry is a contact as the index ranks it.
type Entry struct {
	Contact
	Tier Tier
	// NameWritten: Name is one the person wrote (in Sent), not one
	// learned from mail received; an address book's name may replace
	// only the latter (Merge).
	NameWritten bool
	// Score is log2 of its weight (see Weight), NoWeight for none: the
	// higher, the earlier within its tier.
	Score float64
}

// before reports whether a ranks before b: tier, then score, then the
// address (so that equal ranks come out the same way every time).
func before(a, b *Entry) bool {
	if a.Tier != b.Tier {
		return a.Tier < b.Tier
	}
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Address < b.Address
}
