package store

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/query"
)

// corpusWords mix what folding and tokens must get right: accents, case,
// a German ß, CJK runs with no spaces, and words sharing prefixes.
var corpusWords = []string{"budget", "Budget", "BUDGETS", "Köln", "koln", "café", "Straße", "invoice", "invoices",
	"inventory", "lunch", "東京", "東京都", "大阪", "ソニー", "한국어", "report", "résumé", "e-mail", "Zoë", "zoe", "naïve", "q3", "2026"}

var corpusNames = []string{"Ann Example", "Bob Ströme", "佐藤 花子", "Zoë Quist", "Carl"}

// corpus is n random messages over two accounts and three folders, with
// the bodies of about half of them kept.
func corpus(r *rand.Rand, n int) (map[Key]map[string][]model.Message, []model.Body) {
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = corpusWords[r.IntN(len(corpusWords))]
		}
		return strings.Join(w, " ")
	}
	addr := func() model.Address {
		name := corpusNames[r.IntN(len(corpusNames))]
		return model.Address{Name: name, Address: fmt.Sprintf("%s%d@example.org", strings.ToLower(strings.Fields(name)[0]), r.IntN(3))}
	}
	keys := []Key{work, {Name: "Home", Host: "imap.example.net", User: "ann"}}
	folders := []string{"INBOX", "Archive", "Sent"}
	out := map[Key]map[string][]model.Message{}
	var bodies []model.Body
	for i := range n {
		k := keys[r.IntN(len(keys))]
		f := folders[r.IntN(len(folders))]
		if out[k] == nil {
			out[k] = map[string][]model.Message{}
		}
		m := model.Message{ID: model.MessageID{Account: k.Name, Folder: f, UIDValidity: 1, UID: uint32(i + 1)},
			MessageID: fmt.Sprintf("<m%d@example.org>", i), From: addr(), To: []model.Address{addr()},
			Subject: words(1 + r.IntN(4)), Date: time.Date(2026, 11, 1+r.IntN(28), r.IntN(24), 0, 0, 0, time.UTC),
			Seen: r.IntN(2) == 0, Flagged: r.IntN(5) == 0, Answered: r.IntN(4) == 0, Cc: []model.Address{}}
		for range r.IntN(3) {
			m.Cc = append(m.Cc, addr())
		}
		if r.IntN(3) == 0 {
			m.HasAttachments = true
			m.AttachmentNames = []string{words(1) + ".pdf"}
		}
		if r.IntN(10) == 0 {
			m.Date = time.Time{} // no date at all
		}
		out[k][f] = append(out[k][f], m)
		if r.IntN(2) == 0 {
			bodies = append(bodies, model.Body{Message: m, Text: words(5 + r.IntN(20))})
		}
	}
	return out, bodies
}

// randomQuery writes a query in the language a person would type.
func randomQuery(r *rand.Rand) string {
	term := func() string {
		w := corpusWords[r.IntN(len(corpusWords))]
		switch r.IntN(12) {
		case 0:
			return "is:unread"
		case 1:
			return "has:attachment"
		case 2:
			return []string{"account:work", "account:HOME", "folder:inbox", "folder:Sent"}[r.IntN(4)]
		case 3:
			return []string{"before:2026-11-10", "after:2026-11-20", "is:flagged", "is:answered"}[r.IntN(4)]
		case 4:
			if rs := []rune(w); len(rs) > 2 {
				return string(rs[:2]) + "*"
			}
		case 5:
			return fmt.Sprintf("%q", w+" "+corpusWords[r.IntN(len(corpusWords))])
		case 6, 7:
			return []string{"from:", "to:", "cc:", "subject:", "body:", "filename:"}[r.IntN(6)] + w
		case 8:
			return strings.Fields(corpusNames[r.IntN(len(corpusNames))])[0]
		}
		return w
	}
	var parts []string
	for range 1 + r.IntN(3) {
		t := term()
		switch r.IntN(6) {
		case 0:
			t = "-" + t
		case 1:
			t = t + " OR " + term()
		case 2:
			t = "(" + t + " " + term() + ")"
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " ")
}

// oracleDoc is a stored row as query.Match reads it: the text the index
// was given, through the same functions.
func oracleDoc(t *testing.T, m model.Message, body *model.Body) query.Doc {
	t.Helper()
	to, _ := json.Marshal(m.To)
	cc, _ := json.Marshal(m.Cc)
	d := query.Doc{Account: m.ID.Account, Folder: m.ID.Folder, Date: m.Date, Seen: m.Seen, Flagged: m.Flagged,
		Answered: m.Answered, Attachment: m.HasAttachments, Text: map[query.Field]string{
			query.From: m.From.Name + " " + m.From.Address, query.To: addressText(string(to)), query.Cc: addressText(string(cc)),
			query.Subject: m.Subject, query.Filename: joinNames(m.AttachmentNames)}}
	if body != nil {
		d.Text[query.Body] = body.Text
	}
	if m.Date.IsZero() {
		d.Date = time.Time{}
	}
	return d
}

// The index answers what the oracle answers: on a random corpus of two
// accounts and three folders, every one of a few hundred random queries
// finds exactly the rows query.Match accepts, newest first, and pages
// of a search put together are the whole search.
func TestSearchIsTheOracle(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("SEARCH_SEED"), 10, 64); err == nil {
		seed = v // a failure's seed, to run it again
	}
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 38))
	s := newStore(t)
	docs, queries := 600, 400
	if raceEnabled { // SQLite runs ~25x slower: the race detector needs the paths, not the volume
		docs, queries = 200, 60
	}
	stored, bodies := corpus(r, docs)
	for k, folders := range stored {
		for f, ms := range folders {
			slices.SortFunc(ms, func(a, b model.Message) int { return int(b.ID.UID) - int(a.ID.UID) })
			if err := s.Save(ctx, k, Listing{Folder: f, UIDValidity: 1, Messages: ms}); err != nil {
				t.Fatal(err)
			}
		}
	}
	byID := map[string]*model.Body{}
	for i := range bodies {
		b := &bodies[i]
		for k := range stored {
			if k.Name == b.ID.Account {
				if err := s.SaveBody(ctx, k, *b, 1<<30); err != nil {
					t.Fatal(err)
				}
			}
		}
		byID[b.ID.String()] = b
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	keys := []Key{work, {Name: "Home", Host: "imap.example.net", User: "ann"}}
	type row struct {
		id  string
		doc query.Doc
	}
	var rows []row
	for _, folders := range stored {
		for _, ms := range folders {
			for _, m := range ms {
				d := oracleDoc(t, m, byID[m.ID.String()])
				d.Tokenize()
				rows = append(rows, row{m.ID.String(), d})
			}
		}
	}
	hitsSeen := 0
	for range queries {
		q := randomQuery(r)
		n, err := query.Parse(q, now)
		if err != nil {
			t.Fatalf("query %q: %v", q, err)
		}
		var want []string
		for _, r := range rows {
			if query.Match(n, r.doc) {
				want = append(want, r.id)
			}
		}
		var got []Hit
		var before int64
		for page := 0; ; page++ {
			f, err := s.Search(ctx, Search{Query: n, Accounts: keys, Limit: 97, Before: before})
			if err != nil {
				t.Fatalf("query %q (%s): %v", q, query.String(n), err)
			}
			got = append(got, f.Hits...)
			if f.Next == 0 {
				break
			}
			before = f.Next
		}
		ids := make([]string, len(got))
		for i, m := range got {
			ids[i] = m.ID.String()
			if b := byID[ids[i]]; b != nil && m.Text != b.Text || b == nil && m.Text != "" {
				t.Fatalf("hit %s carries text %q, not its stored body's", ids[i], m.Text)
			}
			if i > 0 && m.Date.After(got[i-1].Date) {
				for _, x := range got[max(0, i-3):min(len(got), i+3)] {
					var docid int64
					s.db.QueryRow(`SELECT docid FROM message m JOIN account a ON a.id = m.account_id WHERE a.name = ? AND folder = ? AND uid = ?`, x.ID.Account, x.ID.Folder, x.ID.UID).Scan(&docid)
					t.Logf("%s %s %d", x.ID, x.Date, docid)
				}
				t.Fatalf("query %q: hit %d (%s) is newer than the one before it", q, i, m.Date)
			}
		}
		slices.Sort(ids)
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Fatalf("query %q, read as %s:\nindex  %d hits\noracle %d hits\nonly index: %v\nonly oracle: %v",
				q, query.String(n), len(ids), len(want), minus(ids, want), minus(want, ids))
		}
		hitsSeen += len(ids)
	}
	if hitsSeen == 0 {
		t.Fatal("no query found anything: the test proves nothing")
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
