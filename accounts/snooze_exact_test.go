package accounts

import (
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

// The mail of the snooze test that must not be confused: the decoy's
// Message-ID contains the real one, and IMAP's HEADER search matches
// substrings.
const (
	realID  = "t@corp.example"
	decoyID = "x-t@corp.example.evil"
)

// seedID puts a read message with Message-ID id (empty: one made up) in
// INBOX and syncs it into the store.
func (s snoozer) seedID(t *testing.T, subject, id string) model.Message {
	t.Helper()
	s.mem.Seed(t, s.user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: subject, Date: time.Now(), MessageID: id, Body: "b"}.Bytes(), imap.FlagSeen)
	if err := s.a.Sync(t.Context(), "", nil); err != nil {
		t.Fatal(err)
	}
	page, _, err := s.a.Stored().Cached(t.Context(), "", 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range page.Messages {
		if m.Subject == subject {
			return m
		}
	}
	t.Fatalf("%q not stored: %+v", subject, page.Messages)
	return model.Message{}
}

// dueNow makes the wake of messageID due: its row is rewritten with a
// time just past, through the schedule's second handle, as another
// process snoozing it again would (no waiting on the wall clock).
func (s snoozer) dueNow(t *testing.T, messageID string) {
	t.Helper()
	all, err := s.sched.All(t.Context(), s.a.snoozing.key)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.MessageID == messageID {
			e.Until = time.Now().Add(-time.Second)
			if err := s.sched.Add(t.Context(), e); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s is not scheduled: %+v", messageID, all)
}

// The wake of <t@corp.example> brings that message back, not the newer
// <x-t@corp.example.evil> (higher uid in the snooze folder), whose
// Message-ID contains it: serve-imap's HEADER search hits both, and the
// wake took the highest uid, while the history said the right subject
// had woken. The decoy is snoozed too ("both"), or moved into the snooze
// folder by another client ("planted"); on the in-process server and on
// Dovecot.
func TestSnoozeWakesExact(t *testing.T) {
	backends := []struct {
		name  string
		start func(t *testing.T) imaptest.Backend
	}{
		{"memimap", func(t *testing.T) imaptest.Backend { return imaptest.NewMem(t, memimap.Options{}) }},
		{"dovecot", func(t *testing.T) imaptest.Backend { return imaptest.StartDovecot(t) }}, // a private one: its users are this test's
	}
	// Names stay short: Dovecot's sockets live under t.TempDir(), named
	// after the test, and a unix socket path has 108 bytes.
	decoys := []struct {
		name  string
		place func(t *testing.T, s snoozer, decoy model.Message)
		// scheduled: the decoy's own wake is still in the schedule after.
		scheduled bool
	}{
		{"both", func(t *testing.T, s snoozer, decoy model.Message) {
			s.snoozeUntil(t, decoy, time.Now().Add(2*time.Hour))
		}, true},
		{"planted", func(t *testing.T, s snoozer, decoy model.Message) {
			c := s.mem.Client(t, s.user)
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Move(imap.UIDSetNum(imap.UID(decoy.ID.UID)), "Snoozed").Wait(); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, bk := range backends {
		t.Run(bk.name, func(t *testing.T) {
			for _, dc := range decoys {
				t.Run(dc.name, func(t *testing.T) {
					s := newSnoozerOn(t, bk.start(t))
					m := s.seedID(t, "lunch on friday", realID)
					decoy := s.seedID(t, "invoice overdue", decoyID)
					s.snoozeUntil(t, m, time.Now().Add(time.Hour))
					dc.place(t, s, decoy)
					s.dueNow(t, realID)
					if err := s.a.Sync(t.Context(), "", nil); err != nil {
						t.Fatal(err)
					}
					if f, seen := s.where(t, m.Subject); !slices.Equal(f, []string{"INBOX"}) || seen {
						t.Fatalf("the snoozed message after its wake: in %v, seen %v", f, seen)
					}
					if f, _ := s.where(t, decoy.Subject); !slices.Equal(f, []string{"Snoozed"}) {
						t.Fatalf("the decoy was woken in its place: in %v", f)
					}
					left, _ := s.sched.All(t.Context(), s.a.snoozing.key)
					woken, _ := s.a.Snoozing().Woken(t.Context(), time.Now().Add(-time.Hour))
					if woken[realID].IsZero() || !woken[decoyID].IsZero() || (len(left) == 1) != dc.scheduled ||
						(dc.scheduled && left[0].MessageID != decoyID) {
						t.Fatalf("schedule %+v, woken %v", left, woken)
					}
					if !historyHas(s.a, `woke "lunch on friday"`) {
						t.Fatalf("history: %+v", s.a.History(50))
					}
				})
			}
		})
	}
}
