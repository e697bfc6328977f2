package store

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"unibox/model"
)

var (
	firstNames = []string{"Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farid", "Grace", "Hiroshi", "Ines", "Jonas", "Kalinda", "Lars", "Mei", "Noor", "Oskar", "Priya"}
	lastNames  = []string{"Keller", "Smith", "Dubois", "Ivanov", "Nakamura", "Okafor", "García", "Lindqvist", "Chen", "Haddad"}
	domains    = []string{"example.org", "mail.example.com", "lists.example.net", "corp.example", "university.example.edu"}
	topics     = []string{"Quarterly report", "Invoice", "Meeting notes", "Re: travel plans for the conference", "Your order has shipped",
		"Fwd: contract draft v3", "Build failed on main", "Weekly newsletter", "Lunch on Friday?", "Security alert for your account",
		"Re: Re: budget approval", "Pull request review requested", "Reminder: dentist appointment", "Photos from the weekend"}
)

// benchMessage is a plausible envelope: senders, lists and subjects
// repeat as in a real inbox, most mail is read, some flagged or answered,
// some with attachments.
func benchMessage(account string, uid uint32, newest time.Time) model.Message {
	i := int(uid)
	first, last := firstNames[i*7%len(firstNames)], lastNames[i*11%len(lastNames)]
	domain := domains[i*3%len(domains)]
	to := []model.Address{{Name: "Sam Doe", Address: "sam@example.org"}}
	for r := range i % 3 {
		to = append(to, model.Address{Name: firstNames[(i+r)%len(firstNames)], Address: fmt.Sprintf("%s@%s", firstNames[(i+r)%len(firstNames)], domain)})
	}
	id := func(uid uint32) string {
		return fmt.Sprintf("%08x.%d@%s", uid*2654435761, uid, domains[int(uid)*3%len(domains)])
	}
	// Conversations of up to 10 messages: each answers the one before.
	th := &model.ThreadHeaders{MessageID: id(uid)}
	if root := uid - uid%10; uid%10 != 0 && root > 0 {
		th.InReplyTo, th.References = id(uid-1), []string{id(root)}
		for p := root + 1; p < uid; p++ {
			th.References = append(th.References, id(p))
		}
	}
	return model.Message{
		Threading:      th,
		ID:             model.MessageID{Account: account, Folder: "INBOX", UIDValidity: 1700000000, UID: uid},
		MessageID:      id(uid),
		From:           model.Address{Name: first + " " + last, Address: fmt.Sprintf("%s.%s@%s", first, last, domain)},
		To:             to,
		Subject:        fmt.Sprintf("%s (#%d)", topics[i*5%len(topics)], i%1000),
		Date:           newest.Add(-time.Duration(100000-i) * 37 * time.Minute),
		Seen:           i%10 != 0,
		Flagged:        i%23 == 0,
		Answered:       i%7 == 0,
		Size:           uint32(2000 + i*7919%90000),
		HasAttachments: i%9 == 0,
	}
}

// benchListings are per messages of k as a first sync lists them: pages
// of 500, newest first, of benchMessage's envelopes without Cc.
func benchListings(k Key, per int, newest time.Time) []Listing {
	var out []Listing
	for top := per; top > 0; top -= 500 {
		l := Listing{Folder: "INBOX", UIDValidity: 1700000000, UIDNext: uint32(per + 1), Total: uint32(per), More: top > 500, At: newest, Inbox: true}
		if top < per {
			l.BeforeUID = uint32(top + 1)
		}
		for uid := top; uid > max(top-500, 0); uid-- {
			m := benchMessage(k.Name, uint32(uid), newest)
			m.Cc = []model.Address{}
			l.Messages = append(l.Messages, m)
		}
		out = append(out, l)
	}
	return out
}

func benchKey(a int) Key {
	return Key{Name: fmt.Sprintf("Account %02d", a), Host: fmt.Sprintf("imap%d.example.org", a), User: fmt.Sprintf("sam%d@example.org", a)}
}

// benchStore makes a store file of accounts × per messages, listed as a
// client lists them (pages of 500, newest first), and closes it.
func benchStore(b *testing.B, accounts, per int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "unibox", "store.db")
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	const page = 500
	for a := range accounts {
		k := benchKey(a)
		for top := per; top > 0; top -= page {
			l := Listing{Folder: "INBOX", UIDValidity: 1700000000, UIDNext: uint32(per + 1), Total: uint32(per),
				More: top > page, At: newest, Inbox: true}
			if top < per {
				l.BeforeUID = uint32(top + 1)
			}
			for uid := top; uid > max(top-page, 0); uid-- {
				l.Messages = append(l.Messages, benchMessage(k.Name, uint32(uid), newest))
			}
			if err := s.Save(ctx, k, l); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// launch is what a face does with the store before any connection: open
// it, read the newest page of each account's inbox, close it.
func launch(b *testing.B, path string, accounts int) {
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	if s.Warning != "" {
		b.Fatal(s.Warning)
	}
	for a := range accounts {
		snap, err := s.Newest(ctx, benchKey(a), "", 50)
		if err != nil || len(snap.Messages) != 50 {
			b.Fatalf("account %d: %d rows, %v", a, len(snap.Messages), err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}

// benchPer is per when benchmarking for figures, and a fiftieth of it in
// -short runs (CI's smoke: each benchmark runs once, to show it still
// works, in a few seconds for the whole package).
func benchPer(per int) int {
	if testing.Short() {
		return per / 50
	}
	return per
}

// BenchmarkLaunchFromStore: the store's part of a launch with 3 accounts
// of 10,000 stored messages each.
func BenchmarkLaunchFromStore(b *testing.B) {
	path := benchStore(b, 3, benchPer(10000))
	for b.Loop() {
		launch(b, path, 3)
	}
}

// BenchmarkLaunchFromStore20vs1: the same with 1 account and with 20 (of
// 2,000 messages each): what each account adds to a launch.
func BenchmarkLaunchFromStore20vs1(b *testing.B) {
	for _, accounts := range []int{1, 20} {
		b.Run(fmt.Sprintf("accounts=%d", accounts), func(b *testing.B) {
			path := benchStore(b, accounts, max(benchPer(2000), 50))
			for b.Loop() {
				launch(b, path, accounts)
			}
		})
	}
}

// BenchmarkThreads: a process's first threading of 100,000 stored
// messages (open, read every row, thread it: WarmThreads), beside the
// same open and read of the rows' threading columns alone (the baseline);
// and one arriving message on a store whose threads are built.
func BenchmarkThreads(b *testing.B) {
	path := benchStore(b, 1, benchPer(100000))
	b.Run("read-only", func(b *testing.B) {
		for b.Loop() {
			s, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			err = s.read(ctx, func(tx *sql.Tx) error {
				th := &threads{seen: -1, t: nil}
				rows, err := th.read(tx)
				n = len(rows)
				return err
			})
			if err != nil || n != benchPer(100000) {
				b.Fatal(n, err)
			}
			s.Close()
		}
	})
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			s, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.WarmThreads(ctx); err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
	newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	uid := uint32(benchPer(100000))
	warm := func(b *testing.B) *Store {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		if err := s.WarmThreads(ctx); err != nil {
			b.Fatal(err)
		}
		return s
	}
	// The same transaction without a new row (one flag state): what any
	// write of a sync's page costs here, threads or not.
	b.Run("arrive-baseline-flag-only", func(b *testing.B) {
		s := warm(b)
		for b.Loop() {
			if _, err := s.ApplySync(ctx, benchKey(0), Changes{Folder: "INBOX", UIDValidity: 1700000000, UIDNext: uid + 1, Total: uid,
				Flags: []FlagState{{UID: 5, Seen: true}}, Done: true, At: newest}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("arrive", func(b *testing.B) {
		s := warm(b)
		for b.Loop() {
			uid++
			m := benchMessage(benchKey(0).Name, uid, newest)
			if _, err := s.ApplySync(ctx, benchKey(0), Changes{Folder: "INBOX", UIDValidity: 1700000000, UIDNext: uid + 1, Total: uid,
				New: []model.Message{m}, Done: true, At: newest}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkMigrate4to5: the first open after the upgrade of a version-4
// file of 100,000 messages (the new columns and indexes), against an open
// of the same file already at version 5; every row is threaded after
// Open returns, in the background, and the time until that is done is
// reported as ms-threaded.
func BenchmarkMigrate4to5(b *testing.B) {
	per := benchPer(100000)
	for _, already := range []bool{true, false} {
		b.Run(map[bool]string{true: "open-v5-baseline", false: "upgrade"}[already], func(b *testing.B) {
			var threaded time.Duration
			for b.Loop() {
				b.StopTimer()
				path := v4File(b, per)
				if already {
					s, err := Open(path)
					if err != nil {
						b.Fatal(err)
					}
					<-s.upgraded
					s.Close()
				}
				b.StartTimer()
				start := time.Now()
				s, err := Open(path)
				if err != nil || s.Warning != "" {
					b.Fatal(err, s.Warning)
				}
				b.StopTimer()
				<-s.upgraded
				threaded += time.Since(start)
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(threaded.Milliseconds())/float64(b.N), "ms-threaded")
		})
	}
}

// v4File is a store file of schema version 4 (as unibox before threads
// left it) holding n messages of one INBOX.
func v4File(b testing.TB, n int) string {
	return olderFile(b, 4, fmt.Sprintf(`INSERT INTO account (id, name, host, user, inbox) VALUES (1, 'Work', 'imap.example.org', 'ann', 'INBOX');
		INSERT INTO folder (account_id, name, uidvalidity) VALUES (1, 'INBOX', 1);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)
		INSERT INTO message (account_id, folder, uid, message_id, from_name, from_addr, recipients, subject, date, seen, flagged, answered, size, attachments)
		SELECT 1, 'INBOX', i, printf('%%08x.%%d@example.org', i * 2654435761, i), 'Ann Example', 'ann@example.org', '[{"name":"Sam","address":"sam@example.org"}]',
			printf('subject %%d', i), i, 1, 0, 0, 4000, 0 FROM n`, n))
}
