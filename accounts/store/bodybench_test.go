package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"unibox/model"
)

// BenchmarkFetchedBodies: the background fetch's write, a batch of 25
// bodies of 300 words (SaveFetched: the bodies, their indexing by the
// triggers and the cap's check in one transaction), onto 20,000 stored
// rows (2,000 with -short), against the same writes with the index's
// triggers dropped (the baseline), in one run; reports messages/s.
func BenchmarkFetchedBodies(b *testing.B) {
	per := benchPer(20000)
	const batch = 25 // bodyBatch in accounts
	for _, indexed := range []bool{true, false} {
		b.Run(fmt.Sprintf("indexed=%v", indexed), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "unibox", "store.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			k := benchKey(0)
			newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			var rows []model.Message
			for _, l := range benchListings(k, per, newest) {
				if err := s.Save(ctx, k, l); err != nil {
					b.Fatal(err)
				}
				rows = append(rows, l.Messages...)
			}
			if !indexed {
				dropIndexTriggers(b, s.db)
			}
			r := rand.New(rand.NewPCG(38, 2))
			z := rand.NewZipf(r, 1.1, 2, uint64(len(benchWords)-1))
			texts := make([]string, 64)
			for i := range texts {
				texts[i] = benchBody(r, z, 300)
			}
			next, n := 0, 0
			start := time.Now()
			for b.Loop() {
				if next+batch > len(rows) {
					b.StopTimer()
					if _, err := s.DropBodies(ctx, k); err != nil {
						b.Fatal(err)
					}
					next = 0
					b.StartTimer()
				}
				bodies := make([]model.Body, batch)
				for i := range bodies {
					bodies[i] = model.Body{Message: rows[next+i], Text: texts[(next+i)%len(texts)]}
				}
				if _, err := s.SaveFetched(ctx, k, bodies, 500<<20); err != nil {
					b.Fatal(err)
				}
				next += batch
				n += batch
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "msgs/s")
		})
	}
}
