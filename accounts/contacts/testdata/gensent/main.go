// Command gensent writes the mail the contacts replay test replays
// (../replay.tsv.gz): two years of one person's mail, received and sent,
// with a realistic skew of correspondents. Deterministic (a fixed seed):
//
//	go run ./accounts/contacts/testdata/gensent
//
// run from the repository root, writes the same file every time.
//
// The person has a few hundred correspondents whose names crowd the
// same first letters (Maria, Mark, Martin, Max; Jo, Jonas, José...) at a
// few big providers and some companies. How much each one writes and is
// written to follows a Zipf law (a few people get most of the mail), and
// drifts: every quarter some correspondents fade and new ones appear (a
// new colleague, a new client). Most sent mail answers something
// received lately; the rest starts a conversation, a few percent of it
// with an address never seen before. Received mail also comes from
// mailing lists and robots, which the person never writes to.
//
// The file: a line a person ("P", index, address, name), then a line a
// message in time order ("M", minutes since the start, "S" sent or "R"
// received, the From's index, the recipients' indexes separated by
// commas, the first one the intended recipient), gzipped.
package main

import (
	"compress/gzip"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

var (
	firstNames = strings.Fields(`Maria Mark Martin Max Marta Mateo Mia Michael Michelle Mohammed Jo John Joanna José Jonas Jorge Julia
		Julian Justin Anna Andreas Andrea Ann Anton Ali Alice Alex Sara Sam Sebastian Stefan Sophie Sofia Chris Christine Clara Carlos
		Daniel David Diana Dmitri Elena Emma Erik Eva Fatima Felix Hannah Hiroshi Ines Isabel Jan Karin Katrin Kevin Laura Lea Lena Leon
		Lucas Luis Nina Noah Olga Oskar Paul Paula Peter Petra Priya Rafael Robert Rosa Simon Thomas Tim Tobias Victoria Wei Yuki Zoe`)
	lastNames = strings.Fields(`Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Smith Johnson Williams Brown Jones García
		Martínez López González Rossi Russo Ferrari Dubois Martin Bernard Nakamura Tanaka Chen Wang Li Kim Park Nguyen Okafor Haddad
		Ivanov Petrov Kowalski Nowak Jensen Hansen Lindqvist Andersson Keller Huber Wolf Koch Richter Klein Schulz Hoffmann Bauer`)
	providers = []string{"gmail.com", "gmail.com", "gmail.com", "outlook.com", "yahoo.com", "gmx.de", "web.de", "posteo.de", "icloud.com", "proton.me"}
	companies = []string{"acme-corp.example", "globex.example", "initech.example", "umbrella.example", "hooli.example", "stark.example", "wayne.example"}
	bulk      = []struct{ addr, name string }{
		{"noreply@github.com", "GitHub"}, {"notifications@github.com", "GitHub"}, {"no-reply@accounts.google.com", "Google"},
		{"newsletter@shop.example", "Shop Newsletter"}, {"info@bank.example", "Your Bank"}, {"dev@lists.example.org", "dev list"},
		{"announce@lists.example.org", "announce"}, {"mailer-daemon@mx.example", "Mail Delivery System"}, {"donotreply@airline.example", "Airline"},
		{"marketing@store.example", "Store"}, {"jobs@careers.example", "Careers"}, {"security@bank.example", "Bank Security"},
	}
)

const (
	people     = 150    // correspondents at any time
	churn      = 5      // of them replaced each quarter
	sentTotal  = 2400   // messages the person sends
	years      = 2      // the span
	zipfS      = 1.15   // the skew
	newAddress = 0.01   // share of sent mail that starts with an address never seen
	replyShare = 0.6    // share of sent mail that answers received mail
	bulkShare  = 0.35   // share of received mail from lists and robots
	quarter    = 131400 // minutes in a quarter (a drift step)
)

type person struct {
	addr, name string
}

func main() {
	r := rand.New(rand.NewPCG(38, 2026))
	me := person{"sam.doe@posteo.de", "Sam Doe"}
	all := []person{me}
	for _, b := range bulk {
		all = append(all, person{b.addr, b.name})
	}
	firstBulk, nBulk := 1, len(bulk)
	used := map[string]bool{me.addr: true}
	newPerson := func() int {
		for {
			first, last := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
			domain := providers[r.IntN(len(providers))]
			if r.IntN(3) == 0 {
				domain = companies[r.IntN(len(companies))]
			}
			f, l := ascii(first), ascii(last)
			local := []string{f + "." + l, f, f[:1] + l, f + "_" + l, f + l[:1], l + "." + f, f + fmt.Sprint(r.IntN(90)+10)}[r.IntN(7)]
			addr := local + "@" + domain
			if used[addr] {
				continue
			}
			used[addr] = true
			name := first + " " + last
			if r.IntN(8) == 0 {
				name = "" // some write without a name
			}
			all = append(all, person{addr, name})
			return len(all) - 1
		}
	}
	// The circle: people in Zipf order; each quarter a few at random
	// places are replaced by new ones.
	circle := make([]int, people)
	for i := range circle {
		circle[i] = newPerson()
	}
	weights := make([]float64, people)
	total := 0.0
	for i := range weights {
		weights[i] = 1 / math.Pow(float64(i+1), zipfS)
		total += weights[i]
	}
	pick := func() int {
		x := r.Float64() * total
		for i, w := range weights {
			if x -= w; x <= 0 {
				return circle[i]
			}
		}
		return circle[len(circle)-1]
	}

	span := years * 4 * quarter
	// Received mail arrives at about three times the rate of sent.
	var lines []string
	var recent []int // the senders of the last received mail (people only)
	sent, firstWritten, firstSeen := 0, 0, 0
	written, heard := map[int]bool{}, map[int]bool{}
	nextQuarter := quarter
	for minute := 0; sent < sentTotal; {
		minute += r.IntN(2*span/(sentTotal*4)) + 1
		if minute >= nextQuarter {
			nextQuarter += quarter
			for range churn {
				circle[r.IntN(people)] = newPerson()
			}
		}
		if r.IntN(4) > 0 { // received
			from := pick()
			if r.Float64() < bulkShare {
				from = firstBulk + r.IntN(nBulk)
			} else {
				recent = append(recent, from)
				if len(recent) > 30 {
					recent = recent[1:]
				}
			}
			heard[from] = true
			to := []int{0}
			if r.IntN(5) == 0 {
				to = append(to, pick())
			}
			lines = append(lines, msgLine(minute, "R", from, to))
			continue
		}
		var first int
		switch x := r.Float64(); {
		case x < newAddress:
			first = newPerson()
		case x < newAddress+replyShare && len(recent) > 0:
			// Answering one of the last messages, the newest likeliest.
			first = recent[len(recent)-1-min(int(r.ExpFloat64()*3), len(recent)-1)]
		default:
			first = pick()
		}
		to := []int{first}
		for range r.IntN(3) / 2 { // now and then a second recipient
			if other := pick(); !slices.Contains(to, other) {
				to = append(to, other)
			}
		}
		lines = append(lines, msgLine(minute, "S", 0, to))
		sent++
		if !written[first] {
			firstWritten++
			if !heard[first] {
				firstSeen++
			}
		}
		for _, t := range to {
			written[t] = true
		}
	}

	out := filepath.Join("accounts", "contacts", "testdata", "replay.tsv.gz")
	f, err := os.Create(out)
	if err != nil {
		fail(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	for i, p := range all {
		fmt.Fprintf(zw, "P\t%d\t%s\t%s\n", i, p.addr, p.name)
	}
	for _, l := range lines {
		fmt.Fprintln(zw, l)
	}
	if err := zw.Close(); err != nil {
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
	fmt.Printf("%s: %d people, %d messages (%d sent to %d addresses; %d sent to an address never written to before, %d of them never seen)\n",
		out, len(all), len(lines), sent, len(written), firstWritten, firstSeen)
}

func msgLine(minute int, kind string, from int, to []int) string {
	s := make([]string, len(to))
	for i, t := range to {
		s[i] = fmt.Sprint(t)
	}
	return fmt.Sprintf("M\t%d\t%s\t%d\t%s", minute, kind, from, strings.Join(s, ","))
}

// ascii is a name as an address's local part has it: lower case,
// accents dropped.
func ascii(s string) string {
	r := strings.NewReplacer("ü", "ue", "ö", "oe", "ä", "ae", "é", "e", "í", "i", "á", "a", "ó", "o", "ñ", "n")
	return r.Replace(strings.ToLower(s))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gensent:", err)
	os.Exit(1)
}
