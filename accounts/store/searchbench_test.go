package store

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/query"
)

// benchWords are a body's words, drawn with a Zipf skew as text has them.
var benchWords = strings.Fields(`the of and to a in is that for it as with was on be by this are from at or have an not
	which but all were we when there can more if no out so said what up its about into than them only other new some could
	time these two may then do first any my now such like our over man me even most made after also did many before must
	through back years where much your way well down should because each just those people how too little state good very
	make world still own see men work long get here between both life being under never day same another know while last
	might us great old year off come since against go came right used take three budget invoice meeting report travel
	contract review quarterly approval shipping order security photos weekend dentist newsletter conference Köln Zürich
	Málaga résumé café naïve déjà vu São Paulo Kraków Ærø 東京 大阪 会議 報告 서울 회의`)

func benchBody(r *rand.Rand, z *rand.Zipf, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = benchWords[z.Uint64()]
	}
	return strings.Join(w, " ")
}

// searchStore is a store of 4 accounts × per messages, a body kept for
// one in four (about 150 words each), made once per benchmark run.
func searchStore(b *testing.B, per int) *Store {
	b.Helper()
	s, err := Open(filepath.Join(b.TempDir(), "unibox", "store.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	r := rand.New(rand.NewPCG(38, 1))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(benchWords)-1))
	newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	start := time.Now()
	rows := 0
	for a := range 4 {
		k := benchKey(a)
		for _, l := range benchListings(k, per, newest) {
			for i, m := range l.Messages {
				if m.ID.UID%9 == 0 {
					l.Messages[i].AttachmentNames = []string{fmt.Sprintf("scan-%d.pdf", m.ID.UID)}
				}
			}
			if err := s.Save(ctx, k, l); err != nil {
				b.Fatal(err)
			}
			rows += len(l.Messages)
			var bodies []model.Body
			for _, m := range l.Messages {
				if m.ID.UID%4 == 0 {
					bodies = append(bodies, model.Body{Message: m, Text: benchBody(r, z, 150)})
				}
			}
			if err := s.SaveBodies(ctx, k, bodies, 1<<40); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Logf("%d messages stored and indexed in %s (%.0f/s, bodies included)", rows, time.Since(start).Round(time.Millisecond),
		float64(rows)/time.Since(start).Seconds())
	return s
}

// BenchmarkSearch: the newest 50 hits of a one-word, a two-word and a
// from: query over 100,000 stored messages in 4 accounts (10,000 with
// -short), and the 50 best of them ranked by relevance, each beside the
// baseline of a LIKE scan of the same rows' text, in the same run; p95 of
// the iterations is reported as p95-ms.
// It also reports the index's size against the stored bodies'.
func BenchmarkSearch(b *testing.B) {
	s := searchStore(b, benchPer(25000))
	var keys []Key
	for a := range 4 {
		keys = append(keys, benchKey(a))
	}
	var index, bodies int64
	s.db.QueryRow(`SELECT (SELECT coalesce(sum(length(block)), 0) FROM search_data) + (SELECT coalesce(sum(length(term)) + count(*) * 16, 0) FROM search_idx)`).Scan(&index)
	s.db.QueryRow(`SELECT coalesce(sum(size), 0) FROM body`).Scan(&bodies)
	b.Logf("index %.1f MB, stored bodies %.1f MB: %.2fx", float64(index)/1e6, float64(bodies)/1e6, float64(index)/float64(bodies))
	// What a face's search adds to the store's: the coverage of every
	// account (accounts.Search reads Coverage for each), beside Folders'
	// count of the rows (what it read before schema 7).
	b.Run("coverage-of-4-accounts", func(b *testing.B) {
		var took []time.Duration
		for b.Loop() {
			t := time.Now()
			for _, k := range keys {
				if _, err := s.Coverage(ctx, k); err != nil {
					b.Fatal(err)
				}
			}
			took = append(took, time.Since(t))
		}
		reportP95(b, took)
	})
	b.Run("folders-of-4-accounts", func(b *testing.B) {
		var took []time.Duration
		for b.Loop() {
			t := time.Now()
			for _, k := range keys {
				if _, err := s.Folders(ctx, k); err != nil {
					b.Fatal(err)
				}
			}
			took = append(took, time.Since(t))
		}
		reportP95(b, took)
	})
	for _, q := range []struct{ name, query, like string }{
		{"one-word", "invoice", "invoice"},
		{"two-word", "budget approval", "budget approval"},
		{"from", "from:chen", "chen"},
		{"body-word", "conference", "conference"},
	} {
		n, err := query.Parse(q.query, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(q.name+"/index", func(b *testing.B) { benchIndexSearch(b, s, n, keys, false) })
		b.Run(q.name+"/ranked", func(b *testing.B) { benchIndexSearch(b, s, n, keys, true) })
		b.Run(q.name+"/like", func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				t := time.Now()
				if got := likeScan(b, s, strings.Fields(q.like)); got == 0 {
					b.Fatal("the LIKE scan found nothing")
				}
				took = append(took, time.Since(t))
			}
			reportP95(b, took)
		})
	}
}

// likeScan is the baseline: every stored row's text read with LIKE (as
// meli searches its table), the newest 50 by date.
func likeScan(b *testing.B, s *Store, words []string) int {
	var conds []string
	var args []any
	for _, w := range words {
		conds = append(conds, `(m.subject LIKE ? OR m.from_name LIKE ? OR m.from_addr LIKE ? OR m.recipients LIKE ? OR m.cc LIKE ? OR m.filenames LIKE ? OR b.body LIKE ?)`)
		for range 7 {
			args = append(args, "%"+w+"%")
		}
	}
	rows, err := s.db.Query(`SELECT m.uid FROM message m LEFT JOIN body b ON b.account_id = m.account_id AND b.folder = m.folder AND b.uid = m.uid
		WHERE `+strings.Join(conds, " AND ")+` ORDER BY m.date DESC LIMIT 50`, args...)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n
}

// benchIndexSearch times the newest (ranked: the best) 50 hits of q over
// keys' mail, as p95-ms.
func benchIndexSearch(b *testing.B, s *Store, q query.Node, keys []Key, ranked bool) {
	var took []time.Duration
	for b.Loop() {
		t := time.Now()
		f, err := s.Search(ctx, Search{Query: q, Accounts: keys, Limit: 50, Ranked: ranked})
		if err != nil || len(f.Hits) == 0 {
			b.Fatalf("%d hits, %v", len(f.Hits), err)
		}
		took = append(took, time.Since(t))
	}
	reportP95(b, took)
}

func reportP95(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkIndexing: storing pages of 500 new messages (the first sync's
// write) with the index, against the same writes with the index's
// triggers dropped (the baseline), in one run; reports messages/s.
func BenchmarkIndexing(b *testing.B) {
	for _, indexed := range []bool{true, false} {
		b.Run(fmt.Sprintf("indexed=%v", indexed), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "unibox", "store.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if !indexed {
				dropIndexTriggers(b, s.db)
			}
			newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			top := uint32(0)
			n := 0
			start := time.Now()
			for b.Loop() {
				l := Listing{Folder: "INBOX", UIDValidity: 1700000000, At: newest, Inbox: true}
				for range 500 {
					top++
					m := benchMessage("Account 00", top, newest)
					m.Cc = []model.Address{}
					l.Messages = append(l.Messages, m)
				}
				slices.Reverse(l.Messages)
				l.UIDNext, l.Total = top+1, top
				if err := s.Save(ctx, benchKey(0), l); err != nil {
					b.Fatal(err)
				}
				n += 500
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "msgs/s")
		})
	}
}

func dropIndexTriggers(b *testing.B, db *sql.DB) {
	for _, t := range []string{"message_docid", "message_redate", "message_index", "message_reindex", "message_unindex", "body_index", "body_reindex", "body_unindex"} {
		if _, err := db.Exec(`DROP TRIGGER ` + t); err != nil {
			b.Fatal(err)
		}
	}
}
