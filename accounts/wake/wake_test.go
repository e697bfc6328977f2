package wake

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The detector in virtual time: each case is two readings a tick apart.
func TestWoke(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	at := func(wall, mono time.Duration) Reading { return Reading{Wall: t0.Add(wall), Mono: mono} }
	for _, tt := range []struct {
		name      string
		prev, now Reading
		woke      bool
		gap       time.Duration
	}{
		{"an ordinary tick", at(0, 0), at(time.Second, time.Second), false, 0},
		{"a tick a little late (a loaded machine)", at(0, 0), at(2500*time.Millisecond, 2500*time.Millisecond), false, 0},
		{"suspended an hour (monotonic stopped)", at(0, 0), at(time.Hour+time.Second, time.Second), true, time.Hour},
		{"stopped a minute (SIGSTOP: both clocks ran)", at(0, 0), at(time.Minute, time.Minute), true, time.Minute - time.Second},
		{"wall clock set forward an hour", at(0, 0), at(time.Hour+time.Second, time.Second), true, time.Hour},
		{"wall clock set back an hour", at(0, 0), at(-time.Hour+time.Second, time.Second), true, time.Hour},
		{"wall clock stepped 1 s by NTP", at(0, 0), at(2*time.Second, time.Second), false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			woke, gap := Woke(tt.prev, tt.now, DefaultInterval, DefaultSlack)
			if woke != tt.woke || gap != tt.gap {
				t.Fatalf("woke %v gap %s, want %v %s", woke, gap, tt.woke, tt.gap)
			}
		})
	}
}

// Watch stops with its context and reports nothing on a quiet machine.
func TestWatchQuiet(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	woke := make(chan time.Duration, 1)
	go func() {
		defer close(done)
		Watch(ctx, 10*time.Millisecond, time.Minute, func(gap time.Duration) { woke <- gap })
	}()
	time.Sleep(50 * time.Millisecond) // a few ticks, none of them a wake (slack: a minute)
	cancel()
	<-done
	select {
	case gap := <-woke:
		t.Fatalf("a wake on a quiet machine (gap %s)", gap)
	default:
	}
}
