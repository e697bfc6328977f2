package store

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"unibox/model"
)

// BenchmarkIndexSize: the search index's size against the stored bodies
// it indexes (issue 38: under 1.5x), on 100,000 messages in 4 accounts
// (2,000 with -short) with a body stored for every one, as the "90d"
// default stores them for recent mail: about 300 words each, Zipf-skewed
// as text is. It reports the index's pages (the FTS5 tables), the body
// table's, the envelope rows' and their ratios, from dbstat; the
// benchmark's time is the building, not a figure.
func BenchmarkIndexSize(b *testing.B) {
	per := benchPer(25000)
	for b.Loop() {
		s, err := Open(filepath.Join(b.TempDir(), "unibox", "store.db"))
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(38, 3))
		z := rand.NewZipf(r, 1.1, 2, uint64(len(benchWords)-1))
		newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		for a := range 4 {
			k := benchKey(a)
			for _, l := range benchListings(k, per, newest) {
				if err := s.Save(ctx, k, l); err != nil {
					b.Fatal(err)
				}
				bodies := make([]model.Body, len(l.Messages))
				for i, m := range l.Messages {
					bodies[i] = model.Body{Message: m, Text: benchBody(r, z, 250+r.IntN(100))}
				}
				if _, err := s.SaveFetched(ctx, k, bodies, 1<<40); err != nil {
					b.Fatal(err)
				}
			}
		}
		pages := func(like string) float64 {
			var n int64
			if err := s.db.QueryRow(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE ?`, like).Scan(&n); err != nil {
				b.Fatal(err)
			}
			return float64(n)
		}
		index, bodies, rows := pages("search%"), pages("body%"), pages("message%")
		var text int64
		if err := s.db.QueryRow(`SELECT sum(length(body)) FROM body`).Scan(&text); err != nil {
			b.Fatal(err)
		}
		const mb = 1 << 20
		per100k := 100000 / float64(4*per)
		b.ReportMetric(index/mb*per100k, "index-MB/100k")
		b.ReportMetric(bodies/mb*per100k, "bodies-MB/100k")
		b.ReportMetric(rows/mb*per100k, "rows-MB/100k")
		b.ReportMetric(index/bodies, "index/bodies")
		b.ReportMetric(float64(text)/float64(4*per), "body-bytes/msg")
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
