package snooze

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkDueNothingDue is what every inbox sync step pays when nothing
// is due: one indexed read of a schedule holding 10,000 snoozes
// (48 µs on the 2-core test machine).
func BenchmarkDueNothingDue(b *testing.B) {
	s, err := Open(b.TempDir() + "/snooze.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	n := 10_000
	if testing.Short() {
		n = 1000 // the CI smoke run (each Add is a synchronous commit)
	}
	for i := range n {
		if err := s.Add(ctx, entry(fmt.Sprintf("m%d@x", i), later)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if due, err := s.Due(ctx, testKey, time.Now()); err != nil || len(due) != 0 {
			b.Fatal(due, err)
		}
	}
}
