package store

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"mime"
	"mime/quotedprintable"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"unibox/accounts/mailtext"
	"unibox/model"
	"unibox/model/query"
)

// The correctness corpus (issue 38): messages written as mail is sent
// (quoted-printable with soft breaks, base64, HTML only, Latin-1,
// RFC 2047 names, attachments), read through the viewer's own parser
// (mailtext.Parse: the text the store is given), stored and indexed. A
// fixed list of queries must find exactly what the generator put where a
// reader sees it: never a word only in a <style>, a <script> or an
// attachment's bytes. Composite queries must equal query.Match's
// brute-force scan of the same text.

// Markers are the words the generator places; filler never shares a
// prefix of four letters with one.
var (
	markerWords = []string{"Köln", "Zürich", "zeppelin", "invoice", "Ærø", "naïve"}
	cjkMarkers  = []string{"東京都庁", "会議室", "서울역"}
	fillerWords = strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike oscar papa quebec romeo sierra tango uniform victor whiskey yankee")
	senders     = []string{"Ann Example <ann@example.org>", "Jürgen Köhler <jk@example.de>", "佐藤 花子 <hanako@example.jp>", "Bob <bob@example.com>"}
)

// corpusMail is a generated message and what a reader of it sees.
type corpusMail struct {
	raw                        []byte
	subject, from, body, files string // the visible text, as generated
}

func genMail(r *rand.Rand, i int) corpusMail {
	words := func(n int) string {
		var w []string
		for range n {
			if r.IntN(6) == 0 {
				if r.IntN(3) == 0 {
					w = append(w, cjkMarkers[r.IntN(len(cjkMarkers))]+"で")
				} else {
					w = append(w, markerWords[r.IntN(len(markerWords))])
				}
			} else {
				w = append(w, fillerWords[r.IntN(len(fillerWords))])
			}
		}
		return strings.Join(w, " ")
	}
	m := corpusMail{subject: words(1 + r.IntN(4)), from: senders[r.IntN(len(senders))], body: words(10 + r.IntN(40))}
	var h bytes.Buffer
	name, addr, _ := strings.Cut(m.from, " <")
	fmt.Fprintf(&h, "From: %s <%s\r\nTo: sam@example.org\r\nSubject: %s\r\n", mime.QEncoding.Encode("utf-8", name), addr, mime.BEncoding.Encode("utf-8", m.subject))
	fmt.Fprintf(&h, "Date: %s\r\nMessage-ID: <c%d@example.org>\r\nMIME-Version: 1.0\r\n", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Hour).Format(time.RFC1123Z), i)
	hidden := "<style>p { font: zeppelin }</style><script>var invoice = 1</script>"
	html := "<html><head><title>invoice</title>" + hidden + "</head><body><p>" + strings.ReplaceAll(strings.ReplaceAll(m.body, "ö", "&ouml;"), "ü", "&#252;") + "</p></body></html>"
	var part string
	switch form := r.IntN(5); form {
	case 0: // plain UTF-8, 8bit
		part = "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + m.body + "\r\n"
	case 1: // quoted-printable, soft line breaks every 20 bytes (inside words)
		var q bytes.Buffer
		w := quotedprintable.NewWriter(&q)
		w.Write([]byte(m.body))
		w.Close()
		part = "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + softBreaks(q.String(), 20) + "\r\n"
	case 2: // HTML only, base64, entities for the accents
		part = "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64.StdEncoding.EncodeToString([]byte(html)) + "\r\n"
	case 3: // alternative: the text part is what is read
		part = "Content-Type: multipart/alternative; boundary=alt\r\n\r\n--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + m.body +
			"\r\n--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html + "\r\n--alt--\r\n"
	default: // Latin-1 when it can say it (no CJK), else UTF-8
		latin, err := charmap.ISO8859_1.NewEncoder().String(m.body)
		if err != nil {
			part = "Content-Type: text/plain; charset=utf-8\r\n\r\n" + m.body + "\r\n"
		} else {
			part = "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + latin + "\r\n"
		}
	}
	if r.IntN(4) == 0 { // an attachment: its name is searchable, its bytes are not
		m.files = "scan " + words(1) + ".pdf"
		part = "Content-Type: multipart/mixed; boundary=mix\r\n\r\n--mix\r\n" + part + "--mix\r\nContent-Type: application/pdf\r\n" +
			"Content-Disposition: attachment; filename*=utf-8''" + strings.ReplaceAll(pathEscape(m.files), "'", "%27") +
			"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64.StdEncoding.EncodeToString([]byte("naïve zeppelin invoice inside the file")) + "\r\n--mix--\r\n"
	}
	m.raw = append(h.Bytes(), part...)
	return m
}

// softBreaks re-wraps quoted-printable text with a soft line break every
// n bytes, never inside an =XX escape: words (and UTF-8 sequences) are
// split across lines as real mailers split them.
func softBreaks(qp string, n int) string {
	flat := strings.ReplaceAll(qp, "=\r\n", "")
	var b strings.Builder
	col := 0
	for i := 0; i < len(flat); i++ {
		if col >= n && flat[i] != '=' && (i < 2 || flat[i-1] != '=' && flat[i-2] != '=') {
			b.WriteString("=\r\n")
			col = 0
		}
		b.WriteByte(flat[i])
		col++
	}
	return b.String()
}

func pathEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func TestSearchCorpusFindsWhatAReaderSees(t *testing.T) {
	n := 10000
	if raceEnabled || testing.Short() {
		n = 300 // the race detector needs the paths, not the volume: go test ./accounts/store runs all 10,000
	}
	r := rand.New(rand.NewPCG(38, 10000))
	s := newStore(t)
	mails := make([]corpusMail, n)
	docs := make([]query.Doc, n)
	var bodies []model.Body
	l := Listing{Folder: "INBOX", UIDValidity: 1, Inbox: true}
	for i := n - 1; i >= 0; i-- {
		c := genMail(r, i)
		p := mailtext.Parse(bytes.NewReader(c.raw), mailtext.Options{})
		if len(p.Problems) > 0 {
			t.Fatalf("message %d: %v\n%s", i, p.Problems, c.raw)
		}
		m := model.Message{ID: model.MessageID{Account: work.Name, Folder: "INBOX", UIDValidity: 1, UID: uint32(i + 1)},
			MessageID: fmt.Sprintf("<c%d@example.org>", i), To: []model.Address{{Address: "sam@example.org"}}, Cc: []model.Address{},
			Date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)}
		for _, f := range p.Headers {
			switch f.Name {
			case "Subject":
				m.Subject = f.Value
			case "From":
				if a := mailtext.Addresses(f.Value); len(a) == 1 {
					m.From = model.Address{Name: a[0].Name, Address: a[0].Address}
				}
			}
		}
		for _, a := range p.Attachments {
			m.AttachmentNames = append(m.AttachmentNames, a.Name)
		}
		m.HasAttachments = len(m.AttachmentNames) > 0
		if m.Subject != c.subject || m.From.Name+" <"+m.From.Address+">" != c.from || strings.Join(m.AttachmentNames, "") != c.files {
			t.Fatalf("message %d read back as %q from %q, files %q; written %q from %q, files %q", i, m.Subject, m.From, m.AttachmentNames, c.subject, c.from, c.files)
		}
		mails[i] = c
		l.Messages = append(l.Messages, m)
		bodies = append(bodies, model.Body{Message: m, Text: p.Text})
		docs[i] = oracleDoc(t, m, &bodies[len(bodies)-1])
		docs[i].Tokenize()
	}
	if err := s.Save(ctx, work, l); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveBodies(ctx, work, bodies, 1<<40); err != nil {
		t.Fatal(err)
	}

	// Every marker, in every field and spelling, against where the
	// generator put it.
	type check struct {
		query string
		want  func(c corpusMail) bool
	}
	var checks []check
	has := func(text, word string) bool {
		return slices.Contains(strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '.' }), word)
	}
	for _, w := range markerWords {
		low := strings.ToLower(w)
		checks = append(checks,
			check{w, func(c corpusMail) bool { return has(c.subject+" "+c.body+" "+c.files, w) }},
			check{fold(low), func(c corpusMail) bool { return has(c.subject+" "+c.body+" "+c.files, w) }},
			check{"body:" + strings.ToUpper(w), func(c corpusMail) bool { return has(c.body, w) }},
			check{"subject:" + w, func(c corpusMail) bool { return has(c.subject, w) }},
			check{"filename:" + w, func(c corpusMail) bool { return strings.Contains(c.files, " "+w+".pdf") }},
			check{string([]rune(low)[:3]) + "*", func(c corpusMail) bool { return has(c.subject+" "+c.body+" "+c.files, w) }},
		)
	}
	for _, w := range cjkMarkers {
		for _, sub := range []string{w, string([]rune(w)[:2]), string([]rune(w)[1:2])} {
			checks = append(checks, check{sub, func(c corpusMail) bool { return strings.Contains(c.subject+c.body+c.files, sub) }})
		}
	}
	checks = append(checks,
		check{"from:jürgen", func(c corpusMail) bool { return strings.HasPrefix(c.from, "Jürgen") }},
		check{"from:花子", func(c corpusMail) bool { return strings.HasPrefix(c.from, "佐藤") }},
		check{`"zeppelin invoice"`, func(c corpusMail) bool {
			return strings.Contains(" "+c.subject+" ", " zeppelin invoice ") || strings.Contains(" "+c.body+" ", " zeppelin invoice ")
		}},
		check{"font", func(corpusMail) bool { return false }},   // only in a <style>
		check{"var", func(corpusMail) bool { return false }},    // only in a <script>
		check{"inside", func(corpusMail) bool { return false }}, // only in an attachment's bytes
	)
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	found := 0
	for _, c := range checks {
		q, err := query.Parse(c.query, now)
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		var want, oracle []uint32
		for i, m := range mails {
			if c.want(m) {
				want = append(want, uint32(i+1))
			}
			if query.Match(q, docs[i]) {
				oracle = append(oracle, uint32(i+1))
			}
		}
		got := searchAll(t, s, q)
		if !slices.Equal(got, want) || !slices.Equal(oracle, want) {
			t.Errorf("%q: the index finds %d, the oracle %d, the generator put it in %d (first differences: %v / %v)",
				c.query, len(got), len(oracle), len(want), firstDiff(got, want), firstDiff(oracle, want))
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("the corpus holds no marker: the test proves nothing")
	}
	// Composite queries: the index and the brute-force scan agree.
	for _, text := range []string{"köln zürich", "köln OR 東京", "-zeppelin invoice", "from:ann (naïve OR 会議)", "has:attachment zeppelin", "subject:zürich body:ærø", "ærø NOT 서울"} {
		q, err := query.Parse(text, now)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		var oracle []uint32
		for i := range mails {
			if query.Match(q, docs[i]) {
				oracle = append(oracle, uint32(i+1))
			}
		}
		if got := searchAll(t, s, q); !slices.Equal(got, oracle) || len(oracle) == 0 {
			t.Errorf("%q: the index finds %d, the oracle %d (first differences: %v)", text, len(got), len(oracle), firstDiff(got, oracle))
		}
	}
}

// fold writes a word without its accents, as a person types it.
func fold(w string) string {
	return strings.NewReplacer("ö", "o", "ü", "u", "æ", "ae", "ø", "o", "ï", "i").Replace(w)
}

// searchAll is every hit of q, by uid ascending.
func searchAll(t *testing.T, s *Store, q query.Node) []uint32 {
	t.Helper()
	var out []uint32
	var before int64
	for {
		f, err := s.Search(ctx, Search{Query: q, Accounts: []Key{work}, Limit: 1000, Before: before})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range f.Hits {
			out = append(out, h.ID.UID)
		}
		if f.Next == 0 {
			break
		}
		before = f.Next
	}
	slices.Sort(out)
	return out
}

func firstDiff(a, b []uint32) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %d vs %d", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d vs %d", len(a), len(b))
}
