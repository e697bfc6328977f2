package accounts

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/snooze"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

// snoozer is an account on memimap (through a real serve-imap child)
// with a store and a snooze schedule of its own, and the schedule opened
// a second time, as another process would.
type snoozer struct {
	a     *Account
	mem   imaptest.Backend
	user  string
	sched *snooze.Schedule
}

func newSnoozer(t *testing.T) snoozer {
	t.Helper()
	return newSnoozerOn(t, imaptest.NewMem(t, memimap.Options{}))
}

// newSnoozerOn is a snoozer on any backend (a fresh user of it).
func newSnoozerOn(t *testing.T, mem imaptest.Backend) snoozer {
	t.Helper()
	user, pass := mem.NewUser(t)
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	book := snooze.NewBook(filepath.Join(dir, "data", "snooze.db"))
	t.Cleanup(func() { book.Close() })
	ac := config.Account{Name: "Work", Kind: "imap", Host: mem.Host(), Port: mem.Port(), Security: "none", Username: user, SnoozeFolder: "Snoozed"}
	a := openAccount(t, ac, Options{Store: Have(st), Snooze: Have(book), Password: func(config.Account) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return pass, nil }
	}})
	other, err := snooze.Open(book.Path())
	if err == nil {
		t.Cleanup(func() { other.Close() })
	}
	return snoozer{a: a, mem: mem, user: user, sched: other}
}

// seed puts a read message in INBOX and syncs it into the store.
func (s snoozer) seed(t *testing.T, subject string) model.Message {
	t.Helper()
	return s.seedID(t, subject, "")
}

// where lists the server's folders holding subject, as another client
// sees them, with its \Seen flag.
func (s snoozer) where(t *testing.T, subject string) (folders []string, seen bool) {
	t.Helper()
	c := s.mem.Client(t, s.user)
	for _, f := range []string{"INBOX", "Snoozed", "Archive"} {
		if _, err := c.Select(f, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
			continue
		}
		res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: subject}}}, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range res.AllUIDs() {
			folders = append(folders, f)
			msgs, err := c.Fetch(imap.UIDSetNum(u), &imap.FetchOptions{Flags: true}).Collect()
			if err != nil || len(msgs) != 1 {
				t.Fatal(err)
			}
			seen = seen || slices.Contains(msgs[0].Flags, imap.FlagSeen)
		}
	}
	return folders, seen
}

// snoozeUntil snoozes m until until and checks it went.
func (s snoozer) snoozeUntil(t *testing.T, m model.Message, until time.Time) {
	t.Helper()
	res, err := s.a.Snoozing().Snooze(t.Context(), "INBOX", m.ID.UIDValidity, []model.Message{m}, until)
	if err != nil || len(res) != 1 || res[0].Kind != model.ResultDone {
		t.Fatalf("snooze: %+v %v", res, err)
	}
	if f, _ := s.where(t, m.Subject); !slices.Equal(f, []string{"Snoozed"}) {
		t.Fatalf("after snooze %q is in %v", m.Subject, f)
	}
}

// waitPast waits for the wall clock to pass until (the event the test is about).
func waitPast(until time.Time) { time.Sleep(time.Until(until) + 10*time.Millisecond) }

func historyHas(a *Account, text string) bool {
	for _, e := range a.History(200) {
		if e.Kind == "snooze" && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// A snoozed message waits in the snooze folder (made on the way) and
// comes back to INBOX, unread, at the first sync after its time, once;
// it is remembered as woken and the history says both steps.
func TestSnoozeWakesAtTheNextSyncOnce(t *testing.T) {
	s := newSnoozer(t)
	m := s.seed(t, "later please")
	until := time.Now().Add(700 * time.Millisecond)
	s.snoozeUntil(t, m, until)
	if err := s.a.Sync(t.Context(), "", nil); err != nil { // before its time: nothing moves
		t.Fatal(err)
	}
	if f, _ := s.where(t, m.Subject); !slices.Equal(f, []string{"Snoozed"}) {
		t.Fatalf("woken early: in %v", f)
	}
	page, _, _ := s.a.Stored().Cached(t.Context(), "", 50)
	if len(page.Messages) != 0 {
		t.Fatalf("the store still shows it in INBOX: %+v", page.Messages)
	}
	waitPast(until)
	for range 2 { // a second sync finds nothing more to do
		if err := s.a.Sync(t.Context(), "", nil); err != nil {
			t.Fatal(err)
		}
	}
	f, seen := s.where(t, m.Subject)
	if !slices.Equal(f, []string{"INBOX"}) || seen {
		t.Fatalf("after the wake: in %v, seen %v", f, seen)
	}
	page, _, _ = s.a.Stored().Cached(t.Context(), "", 50)
	if len(page.Messages) != 1 || page.Messages[0].Seen || page.Messages[0].Subject != m.Subject {
		t.Fatalf("the store after the wake: %+v", page.Messages)
	}
	left, _ := s.sched.All(t.Context(), s.a.snoozing.key)
	woken, _ := s.a.Snoozing().Woken(t.Context(), until.Add(-time.Hour))
	if len(left) != 0 || woken[m.MessageID].IsZero() {
		t.Fatalf("schedule %+v, woken %v", left, woken)
	}
	if !historyHas(s.a, `snoozed "later please" until`) || !historyHas(s.a, `woke "later please"`) {
		t.Fatalf("history: %+v", s.a.History(50))
	}
}

// A message someone moved out of the snooze folder meanwhile is dropped
// from the schedule at its time, not brought back.
func TestSnoozedMessageMovedElsewhereIsDropped(t *testing.T) {
	s := newSnoozer(t)
	m := s.seed(t, "filed by hand")
	until := time.Now().Add(500 * time.Millisecond)
	s.snoozeUntil(t, m, until)
	c := s.mem.Client(t, s.user)
	if _, err := c.Select("Snoozed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.SeqSetNum(1), "Archive").Wait(); err != nil {
		t.Fatal(err)
	}
	waitPast(until)
	if err := s.a.Sync(t.Context(), "", nil); err != nil {
		t.Fatal(err)
	}
	if f, _ := s.where(t, m.Subject); !slices.Equal(f, []string{"Archive"}) {
		t.Fatalf("resurrected: in %v", f)
	}
	left, _ := s.sched.All(t.Context(), s.a.snoozing.key)
	if len(left) != 0 || !historyHas(s.a, "dropped") {
		t.Fatalf("schedule %+v; history %+v", left, s.a.History(50))
	}
}

// deadClaim is the claim of a process that has exited.
func deadClaim(t *testing.T) snooze.Claim {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return snooze.Claim{PID: cmd.Process.Pid, Start: "1", At: time.Now()}
}

// A process that claimed a wake and died is taken over only after reading
// where the message is: still in the snooze folder, it is moved (once);
// already in INBOX (the dead process moved it), it is only settled.
func TestDeadClaimIsTakenOverAfterLooking(t *testing.T) {
	for _, movedByTheDead := range []bool{false, true} {
		t.Run(map[bool]string{false: "still snoozed", true: "already moved"}[movedByTheDead], func(t *testing.T) {
			s := newSnoozer(t)
			m := s.seed(t, "claimed then lost")
			until := time.Now().Add(500 * time.Millisecond)
			s.snoozeUntil(t, m, until)
			waitPast(until)
			due, err := s.sched.Due(t.Context(), s.a.snoozing.key, time.Now())
			if err != nil || len(due) != 1 {
				t.Fatalf("due: %+v %v", due, err)
			}
			if _, err := s.sched.Claim(t.Context(), due[0], deadClaim(t)); err != nil {
				t.Fatal(err)
			}
			if movedByTheDead {
				c := s.mem.Client(t, s.user)
				if _, err := c.Select("Snoozed", nil).Wait(); err != nil {
					t.Fatal(err)
				}
				if _, err := c.Move(imap.SeqSetNum(1), "INBOX").Wait(); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.a.Sync(t.Context(), "", nil); err != nil {
				t.Fatal(err)
			}
			f, seen := s.where(t, m.Subject)
			if !slices.Equal(f, []string{"INBOX"}) || seen {
				t.Fatalf("after the takeover: in %v, seen %v", f, seen)
			}
			left, _ := s.sched.All(t.Context(), s.a.snoozing.key)
			woken, _ := s.a.Snoozing().Woken(t.Context(), until.Add(-time.Hour))
			if len(left) != 0 || woken[m.MessageID].IsZero() {
				t.Fatalf("schedule %+v, woken %v", left, woken)
			}
		})
	}
}

// A live claim of another process is left alone: the message stays
// snoozed until that process settles it (or dies).
func TestLiveClaimIsLeftAlone(t *testing.T) {
	s := newSnoozer(t)
	m := s.seed(t, "someone else wakes it")
	until := time.Now().Add(500 * time.Millisecond)
	s.snoozeUntil(t, m, until)
	waitPast(until)
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	due, _ := s.sched.Due(t.Context(), s.a.snoozing.key, time.Now())
	live := snooze.Claim{PID: cmd.Process.Pid, Start: "", At: time.Now()} // start unknown: trusted while the pid lives
	if _, err := s.sched.Claim(t.Context(), due[0], live); err != nil {
		t.Fatal(err)
	}
	if err := s.a.Sync(t.Context(), "", nil); err != nil {
		t.Fatal(err)
	}
	if f, _ := s.where(t, m.Subject); !slices.Equal(f, []string{"Snoozed"}) {
		t.Fatalf("woken under another process's live claim: in %v", f)
	}
}

// Moving a message out of the snooze folder from unibox (z's move back,
// or an archive) ends its snooze at once.
func TestMovingOutOfTheSnoozeFolderEndsTheSnooze(t *testing.T) {
	s := newSnoozer(t)
	m := s.seed(t, "never mind")
	res, err := s.a.Snoozing().Snooze(t.Context(), "INBOX", m.ID.UIDValidity, []model.Message{m}, time.Now().Add(time.Hour))
	if err != nil || len(res) != 1 || res[0].Dest.UID == 0 {
		t.Fatalf("snooze: %+v %v", res, err)
	}
	back := m
	back.ID = res[0].Dest
	out, err := s.a.Apply(t.Context(), model.Op{Action: model.ActMove, To: "INBOX"}, "Snoozed", back.ID.UIDValidity, []model.Message{back})
	if err != nil || out[0].Kind != model.ResultDone {
		t.Fatalf("move back: %+v %v", out, err)
	}
	left, _ := s.sched.All(t.Context(), s.a.snoozing.key)
	if len(left) != 0 || !historyHas(s.a, "snooze of \"never mind\" ended") {
		t.Fatalf("schedule after the move back: %+v; history %+v", left, s.a.History(50))
	}
}

func TestSnoozeRefusesAPastTime(t *testing.T) {
	s := newSnoozer(t)
	m := s.seed(t, "too late")
	_, err := s.a.Snoozing().Snooze(t.Context(), "INBOX", m.ID.UIDValidity, []model.Message{m}, time.Now().Add(-time.Minute))
	if err == nil || !strings.Contains(err.Error(), "until") {
		t.Fatalf("past until: %v", err)
	}
}

// A snooze folder deleted on the server (with the message in it) is the
// truth too: the wake drops the entry once, instead of putting it off at
// every sync.
func TestSnoozeFolderDeletedDropsTheWake(t *testing.T) {
	s := newSnoozer(t)
	m := s.seed(t, "folder gone")
	until := time.Now().Add(500 * time.Millisecond)
	s.snoozeUntil(t, m, until)
	if err := s.mem.Client(t, s.user).Delete("Snoozed").Wait(); err != nil {
		t.Fatal(err)
	}
	waitPast(until)
	if err := s.a.Sync(t.Context(), "", nil); err != nil {
		t.Fatal(err)
	}
	left, _ := s.sched.All(t.Context(), s.a.snoozing.key)
	if len(left) != 0 || !historyHas(s.a, `snooze of "folder gone" dropped`) || historyHas(s.a, "put off") {
		t.Fatalf("schedule %+v; history %+v", left, s.a.History(50))
	}
}
