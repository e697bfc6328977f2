package contacts

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"unibox/accounts/store"
	"unibox/model"
)

// benchBook is a Book over a store file holding about addrs addresses:
// an INBOX with mail from 4/5 of them and a Sent folder to 2/5 (some
// both), a few messages each, skewed; and the store's path, for the
// baseline to read the same file.
func benchBook(b *testing.B, addrs int) (*Book, string, []string) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "store.db")
	st, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if err := st.SetSent(ctx, work, "Sent"); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(20000, 38))
	firsts := []string{"anna", "andreas", "ali", "alex", "maria", "mark", "martin", "max", "jo", "john", "jonas", "jose", "julia",
		"sara", "sam", "stefan", "chris", "clara", "daniel", "david", "elena", "emma", "eva", "felix", "hannah", "ines", "jan",
		"karin", "kevin", "laura", "lena", "leon", "lucas", "nina", "noah", "olga", "paul", "peter", "priya", "rosa", "simon",
		"thomas", "tim", "wei", "yuki", "zoe"}
	lasts := []string{"mueller", "schmidt", "weber", "smith", "brown", "garcia", "lopez", "rossi", "dubois", "tanaka", "chen",
		"wang", "kim", "nguyen", "okafor", "haddad", "ivanov", "nowak", "jensen", "keller", "huber", "wolf", "koch", "klein"}
	domains := []string{"gmail.com", "gmail.com", "outlook.com", "yahoo.com", "gmx.de", "web.de", "posteo.de", "icloud.com",
		"acme.example", "globex.example", "initech.example", "uni.example.edu"}
	people := make([]model.Address, addrs)
	var typed []string
	for i := range people {
		f, l := firsts[r.IntN(len(firsts))], lasts[r.IntN(len(lasts))]
		people[i] = model.Address{Name: f + " " + l, Address: fmt.Sprintf("%s.%s%d@%s", f, l, i, domains[r.IntN(len(domains))])}
		typed = append(typed, people[i].Address[:1+i%3]) // 1, 2 and 3 letters
	}
	me := model.Address{Name: "Me", Address: "me@posteo.de"}
	now := time.Now()
	pages := map[string][]model.Message{}
	uid := map[string]uint32{}
	flush := func(folder string) {
		if len(pages[folder]) == 0 {
			return
		}
		if err := st.Save(ctx, work, store.Listing{Folder: folder, UIDValidity: 1, Messages: pages[folder], More: true, At: now}); err != nil {
			b.Fatal(err)
		}
		pages[folder] = nil
	}
	add := func(folder string, from model.Address, to []model.Address) {
		uid[folder]++
		pages[folder] = append(pages[folder], model.Message{ID: model.MessageID{Account: "Work", Folder: folder, UIDValidity: 1, UID: uid[folder]},
			MessageID: fmt.Sprintf("%s%d@b", folder, uid[folder]), From: from, To: to, Cc: []model.Address{}, Subject: "s",
			Date: now.Add(-time.Duration(r.IntN(700*24)) * time.Hour)})
		if len(pages[folder]) == 500 {
			flush(folder)
		}
	}
	for i, p := range people {
		n := 1 + int(r.ExpFloat64()*2)
		if i%5 != 4 { // 4/5 wrote
			for range n {
				add("INBOX", p, []model.Address{me})
			}
		}
		if i%5 >= 3 { // 2/5 were written to
			for range n {
				add("Sent", me, []model.Address{p})
			}
		}
	}
	flush("INBOX")
	flush("Sent")
	return New(Options{Store: st, Sources: []Source{{Account: "Work", Key: work, Own: []string{me.Address}}}}), path, typed
}

// BenchmarkLookup: completing what is typed (1 to 3 letters of an
// address) over 20,000 addresses in a store file, through the Book (its
// version check included), against a naive scan of the same file's
// message rows with LIKE (the baseline), in one run; reports each one's
// p95 and the ratio, and how long the index takes to build again after
// the store changed.
func BenchmarkLookup(b *testing.B) {
	addrs := 20000
	if testing.Short() {
		addrs = 2000
	}
	book, path, typed := benchBook(b, addrs)
	start := time.Now()
	if _, err := book.Lookup(ctx, "a", 10); err != nil {
		b.Fatal(err)
	}
	build := time.Since(start)
	if n := book.index.Len(); n < addrs*95/100 {
		b.Fatalf("%d addresses indexed", n)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	naive := func(q string) error {
		rows, err := db.Query(`SELECT lower(addr), max(name), count(*) AS n FROM (
				SELECT from_addr AS addr, from_name AS name FROM message
				UNION ALL SELECT j.value ->> 'address', j.value ->> 'name' FROM message, json_each(message.recipients) j WHERE folder = 'Sent')
			WHERE addr LIKE ?1 || '%' OR substr(addr, instr(addr, '@') + 1) LIKE ?1 || '%' OR name LIKE ?1 || '%' OR name LIKE '% ' || ?1 || '%'
			GROUP BY lower(addr) ORDER BY n DESC LIMIT 10`, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	}
	var ours, base []time.Duration
	i := 0
	for b.Loop() {
		q := typed[i%len(typed)]
		i++
		t0 := time.Now()
		if _, err := book.Lookup(ctx, q, 10); err != nil {
			b.Fatal(err)
		}
		ours = append(ours, time.Since(t0))
		if i%20 == 1 { // the baseline is slow: a sample of the queries
			t0 = time.Now()
			if err := naive(q); err != nil {
				b.Fatal(err)
			}
			base = append(base, time.Since(t0))
		}
	}
	p95 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)*95/100].Microseconds()) / 1000
	}
	ourP95, baseP95 := p95(ours), p95(base)
	b.ReportMetric(ourP95, "p95-ms")
	b.ReportMetric(baseP95, "naive-p95-ms")
	b.ReportMetric(baseP95/ourP95, "naive/ours")
	b.ReportMetric(float64(build.Microseconds())/1000, "build-ms")
	b.ReportMetric(float64(book.index.Len()), "addresses")
}
