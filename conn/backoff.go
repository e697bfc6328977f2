package conn

import (
	"math/rand/v2"
	"time"
)

// Backoff computes cooldowns: exponential from Base by Factor up to Cap,
// each spread by ±Jitter so accounts that failed together do not retry
// together (gRPC connection-backoff, AWS "exponential backoff and jitter").
type Backoff struct {
	Base   time.Duration
	Factor float64
	Cap    time.Duration
	Jitter float64 // fraction, 0.2 = ±20 %
	// Rand returns a number in [0,1); nil uses math/rand/v2.
	Rand func() float64
}

// Delay is the cooldown after the n-th consecutive failure (n >= 1).
func (b Backoff) Delay(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	d := float64(b.Base)
	for i := 1; i < n && d < float64(b.Cap); i++ {
		d *= b.Factor
	}
	if d > float64(b.Cap) {
		d = float64(b.Cap)
	}
	if b.Jitter > 0 {
		r := rand.Float64
		if b.Rand != nil {
			r = b.Rand
		}
		d *= 1 + b.Jitter*(2*r()-1)
	}
	if d < float64(time.Millisecond) {
		d = float64(time.Millisecond)
	}
	return time.Duration(d)
}
