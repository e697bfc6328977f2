package store

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"unibox/model"
)

// BenchmarkContactsWrite: storing pages of 500 new messages (a first
// sync's write) with the contacts index's triggers, against the same
// writes with them dropped (the baseline), in one run; reports
// messages/s and, since wall time on a shared machine moves with its
// load, the process's CPU time per message. INBOX counts each message's
// From, Sent its recipients.
func BenchmarkContactsWrite(b *testing.B) {
	for _, c := range []struct {
		folder  string
		counted bool
	}{{"INBOX", true}, {"INBOX", false}, {"Sent", true}, {"Sent", false}} {
		folder, counted := c.folder, c.counted
		b.Run(fmt.Sprintf("folder=%s/contacts=%v", folder, counted), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "unibox", "store.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if err := s.SetSent(ctx, benchKey(0), "Sent"); err != nil {
				b.Fatal(err)
			}
			if !counted {
				dropContactsTriggers(b, s.db)
			}
			newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			top := map[string]uint32{}
			n := 0
			start, cpu0 := time.Now(), cpuTime()
			for b.Loop() {
				l := Listing{Folder: folder, UIDValidity: 1700000000, At: newest}
				for range 500 {
					top[folder]++
					m := benchMessage("Account 00", top[folder], newest)
					m.ID.Folder = folder
					m.Cc = []model.Address{}
					l.Messages = append(l.Messages, m)
				}
				slices.Reverse(l.Messages)
				l.UIDNext, l.Total = top[folder]+1, top[folder]
				if err := s.Save(ctx, benchKey(0), l); err != nil {
					b.Fatal(err)
				}
				n += 500
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "msgs/s")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(n), "cpu-µs/msg")
		})
	}
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func dropContactsTriggers(b *testing.B, db *sql.DB) {
	for _, t := range []string{"message_contacts", "message_contacts_sent", "message_uncontacts", "message_uncontacts_sent", "message_recontacts", "message_recontacts_sent", "body_bulk", "body_rebulk"} {
		if _, err := db.Exec(`DROP TRIGGER ` + t); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContactsBuild: counting every row of a file from before the
// contacts index (100,000 messages: the one write after an upgrade,
// which holds the write lock meanwhile), against reading the same rows'
// From columns (the baseline), in one run.
func BenchmarkContactsBuild(b *testing.B) {
	path := benchStore(b, 1, benchPer(100000))
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	<-s.upgraded
	b.Run("read-baseline", func(b *testing.B) {
		for b.Loop() {
			var n int
			if err := s.read(ctx, func(tx *sql.Tx) error {
				return tx.QueryRow(`SELECT count(DISTINCT from_addr) FROM message`).Scan(&n)
			}); err != nil || n == 0 {
				b.Fatal(n, err)
			}
		}
	})
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if err := s.write(ctx, func(tx *sql.Tx) error {
				_, err := tx.Exec(`UPDATE counter SET value = 0 WHERE name = 'contacts_built'`)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			if err := s.buildContacts(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkContactsSmallWrite: the writes a person's key makes (one
// message marked read, one archived and put back) and one new message
// arriving, with the contacts index's triggers and without (the
// baseline), in one run: a small write's statements are compiled anew,
// and every trigger a statement may fire is compiled with it.
func BenchmarkContactsSmallWrite(b *testing.B) {
	for _, counted := range []bool{true, false} {
		b.Run(fmt.Sprintf("contacts=%v", counted), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "unibox", "store.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if !counted {
				dropContactsTriggers(b, s.db)
			}
			newest := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			var msgs []model.Message
			for uid := uint32(1); uid <= 100; uid++ {
				msgs = append(msgs, benchMessage("Account 00", uid, newest))
			}
			if err := s.Save(ctx, benchKey(0), Listing{Folder: "INBOX", UIDValidity: 1700000000, Messages: msgs, At: newest}); err != nil {
				b.Fatal(err)
			}
			uid := uint32(100)
			start, cpu0 := time.Now(), cpuTime()
			for b.Loop() {
				m := msgs[int(uid)%100]
				if _, err := s.Apply(ctx, benchKey(0), model.Op{Action: model.ActSetSeen, Value: true}, []model.Message{m}); err != nil {
					b.Fatal(err)
				}
				prior, err := s.Apply(ctx, benchKey(0), model.Op{Action: model.ActArchive}, []model.Message{m})
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Revert(ctx, benchKey(0), prior); err != nil {
					b.Fatal(err)
				}
				uid++
				if _, err := s.ApplySync(ctx, benchKey(0), Changes{Folder: "INBOX", UIDValidity: 1700000000, UIDNext: uid + 1, Total: uid,
					New: []model.Message{benchMessage("Account 00", uid, newest)}, Done: true, At: newest}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/round")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/round")
		})
	}
}
