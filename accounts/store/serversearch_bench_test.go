package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/model"
	"unibox/model/query"
)

// BenchmarkSearchAgainstDovecot: the other baseline. The same
// 10,000 messages (200 with -short), every one with a body of about 150
// words, are in a Dovecot INBOX (.ci/dovecot.sh's, without an FTS
// plugin, as most servers are configured) and in a store; a query's
// newest 50 hits from the index are timed beside the server's UID SEARCH
// for the same words (TEXT: headers and body), over a live connection
// with the folder selected, so the figure is the search alone. p95-ms
// of the iterations for each.
func BenchmarkSearchAgainstDovecot(b *testing.B) {
	n := benchPer(10000)
	if testing.Short() {
		n = 200
	}
	d := imaptest.NewDovecot(b, "erin")
	user, _ := d.NewUser(b)
	s, err := Open(filepath.Join(b.TempDir(), "unibox", "store.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	k := benchKey(0)
	r := rand.New(rand.NewPCG(38, 4))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(benchWords)-1))
	newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	start := time.Now()
	for _, l := range benchListings(k, n, newest) {
		var bodies []model.Body
		for _, m := range l.Messages {
			text := benchBody(r, z, 150)
			bodies = append(bodies, model.Body{Message: m, Text: text})
			d.Seed(b, user, "INBOX", imaptest.Mail{From: fmt.Sprintf("%s <%s>", m.From.Name, m.From.Address), To: "sam@example.org",
				Subject: m.Subject, Date: m.Date, Body: text}.Bytes())
		}
		if err := s.Save(ctx, k, l); err != nil {
			b.Fatal(err)
		}
		if _, err := s.SaveFetched(ctx, k, bodies, 1<<40); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("%d messages in Dovecot and the store in %s", n, time.Since(start).Round(time.Second))
	c := d.Client(b, user)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		b.Fatal(err)
	}
	for _, q := range []struct {
		name, query string
		server      imap.SearchCriteria
	}{
		{"one-word", "conference", imap.SearchCriteria{Text: []string{"conference"}}},
		{"two-word", "budget approval", imap.SearchCriteria{Text: []string{"budget", "approval"}}},
		{"from", "from:chen", imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "From", Value: "chen"}}}},
	} {
		parsed, err := query.Parse(q.query, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(q.name+"/index", func(b *testing.B) { benchIndexSearch(b, s, parsed, []Key{k}, false) })
		b.Run(q.name+"/dovecot", func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				t := time.Now()
				data, err := c.UIDSearch(&q.server, nil).Wait()
				if err != nil || len(data.AllUIDs()) == 0 {
					b.Fatalf("%d hits, %v", len(data.AllUIDs()), err)
				}
				took = append(took, time.Since(t))
			}
			reportP95(b, took)
		})
	}
}
