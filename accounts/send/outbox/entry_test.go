package outbox

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Enqueue refuses what could never be sent, naming the field, and
// writes nothing.
func TestEnqueueBadInput(t *testing.T) {
	b := openBox(t)
	for _, tt := range []struct {
		name, field string
		e           Entry
		wire        []byte
	}{
		{"no account", "account", Entry{Rcpt: []string{"b@x"}}, []byte("m")},
		{"no recipient", "rcpt", Entry{Account: "work"}, []byte("m")},
		{"a bad flag", `flag: invalid ("seen"`, Entry{Account: "work", Rcpt: []string{"b@x"}, Flag: "seen"}, []byte("m")},
		{"a path for a draft", "draft_id", Entry{Account: "work", Rcpt: []string{"b@x"}, DraftID: "../x"}, []byte("m")},
		{"no message", "the message", Entry{Account: "work", Rcpt: []string{"b@x"}}, nil},
	} {
		if _, err := b.Enqueue(tt.e, tt.wire, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: %v, want ErrInvalid naming %s", tt.name, err, tt.field)
		}
	}
	if names, _ := os.ReadDir(b.outbox); len(names) != 0 {
		t.Errorf("refused entries left %v", names)
	}
}

// Due is the queued entries whose time has come, oldest first; Orphans
// the entries of accounts that are gone.
func TestDueAndOrphans(t *testing.T) {
	b := openBox(t)
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	later := enqueue(t, b, Entry{SendAt: now.Add(-time.Second)})
	earlier := enqueue(t, b, Entry{SendAt: now.Add(-time.Minute), Account: "old"})
	enqueue(t, b, Entry{SendAt: now.Add(time.Second)}) // undo may still take it back
	backoff := enqueue(t, b, Entry{SendAt: now.Add(-time.Hour)})
	c, _ := b.Claim(backoff.ID)
	c.Mark(StateQueued, func(e *Entry) { e.NextTry = now.Add(time.Second) })
	c.Release()
	sending := enqueue(t, b, Entry{SendAt: now.Add(-time.Hour)})
	c, _ = b.Claim(sending.ID)
	c.Mark(StateSending, nil)
	c.Release()
	due, err := b.Due(now)
	if err != nil || len(due) != 2 || due[0].ID != earlier.ID || due[1].ID != later.ID {
		t.Fatalf("due %+v %v, want %s then %s", due, err, earlier.ID, later.ID)
	}
	orphans, err := b.Orphans([]string{"work", "home"})
	if err != nil || len(orphans) != 1 || orphans[0].ID != earlier.ID {
		t.Fatalf("orphans %+v %v", orphans, err)
	}
}

// An entry whose JSON does not parse is set aside as .broken-TIME with
// its bodies, listed with its error every time, never due nor claimed,
// and gone only when a person removes it.
func TestBrokenEntryIsSetAside(t *testing.T) {
	b := openBox(t)
	e := enqueue(t, b, Entry{})
	good := enqueue(t, b, Entry{})
	json := filepath.Join(b.outbox, e.ID+".json")
	if err := os.WriteFile(json, []byte(`{"id": "`+e.ID+`", "state": "sen`), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		all, err := b.Entries()
		if err != nil || len(all) != 2 {
			t.Fatalf("listing %d: %+v %v", i, all, err)
		}
		for _, x := range all {
			if x.ID == e.ID && (!errors.Is(x.Err, ErrDamaged) || !strings.Contains(x.Err.Error(), ".broken-")) {
				t.Errorf("listing %d: the broken entry says %v", i, x.Err)
			}
			if x.ID == good.ID && x.Err != nil {
				t.Errorf("the good entry: %v", x.Err)
			}
		}
	}
	if _, err := os.Stat(json); !os.IsNotExist(err) {
		t.Fatalf("the broken JSON is still taken for an entry: %v", err)
	}
	aside, _ := filepath.Glob(json + ".broken-*")
	if len(aside) != 1 {
		t.Fatalf("set aside: %v", aside)
	}
	for _, ext := range []string{".wire", ".saved"} {
		if _, err := os.Stat(filepath.Join(b.outbox, e.ID+ext)); err != nil {
			t.Errorf("body %s: %v", ext, err)
		}
	}
	if due, _ := b.Due(time.Now()); len(due) != 1 || due[0].ID != good.ID {
		t.Errorf("due %+v", due)
	}
	if _, err := b.Claim(e.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("claiming the broken entry: %v", err)
	}
	if err := b.Remove(e.ID); err != nil {
		t.Fatal(err)
	}
	if all, _ := b.Entries(); len(all) != 1 || all[0].ID != good.ID {
		t.Fatalf("after removing it: %+v", all)
	}
}

// Undo takes a queued entry back to its draft; a draft that is gone is
// made again from the copy for Sent: the text is never lost. Once
// claimed or past queued, undo is refused.
func TestCancel(t *testing.T) {
	b := openBox(t)
	d, err := b.NewDraft("work", "new", nil, []byte("the text"))
	if err != nil {
		t.Fatal(err)
	}
	e := enqueue(t, b, Entry{DraftID: d.ID})
	held, err := b.Claim(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Cancel(e.ID); !errors.Is(err, ErrClaimed) {
		t.Fatalf("undo while a sender holds it: %v", err)
	}
	held.Release()
	back, err := b.Cancel(e.ID)
	if err != nil || back.DraftID != d.ID {
		t.Fatalf("undo: %+v %v", back, err)
	}
	if _, text, err := b.Draft(d.ID); err != nil || string(text) != "the text" {
		t.Fatalf("the draft after undo: %q %v", text, err)
	}
	if all, _ := b.Entries(); len(all) != 0 {
		t.Fatalf("entries after undo: %+v", all)
	}
	if names, _ := os.ReadDir(b.outbox); len(names) != 0 {
		t.Errorf("undo left %v", names)
	}

	noDraft := enqueue(t, b, Entry{})
	back, err = b.Cancel(noDraft.ID)
	if err != nil || back.DraftID == "" {
		t.Fatalf("undo without a draft: %+v %v", back, err)
	}
	if _, text, err := b.Draft(back.DraftID); err != nil || !bytes.Equal(text, []byte("saved body")) {
		t.Fatalf("the draft made from the saved body: %q %v", text, err)
	}

	sending := enqueue(t, b, Entry{})
	c, _ := b.Claim(sending.ID)
	c.Mark(StateSending, nil)
	c.Release()
	if _, err := b.Cancel(sending.ID); !errors.Is(err, ErrState) {
		t.Fatalf("undo once sending: %v", err)
	}
}

// Remove takes a done entry and its draft; a failed or unknown one a
// person discards keeps its draft; one still on its way is refused.
func TestRemove(t *testing.T) {
	b := openBox(t)
	through := func(states ...State) (Entry, Draft) {
		d, err := b.NewDraft("work", "new", nil, []byte("text"))
		if err != nil {
			t.Fatal(err)
		}
		e := enqueue(t, b, Entry{DraftID: d.ID})
		c, err := b.Claim(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Release()
		for _, s := range states {
			if err := c.Mark(s, nil); err != nil {
				t.Fatal(err)
			}
		}
		return e, d
	}
	for _, tt := range []struct {
		states    []State
		removed   bool
		draftKept bool
	}{
		{[]State{StateSending, StateSent, StateSaved, StateDone}, true, false},
		{[]State{StateSending, StateSent, StateDone}, true, false},
		{[]State{StateSending, StateUnknown}, true, true},
		{[]State{StateFailed}, true, true},
		{nil, false, true},
		{[]State{StateSending}, false, true},
		{[]State{StateSending, StateSent}, false, true},
	} {
		e, d := through(tt.states...)
		err := b.Remove(e.ID)
		if tt.removed != (err == nil) || !tt.removed && !errors.Is(err, ErrState) {
			t.Errorf("after %v: Remove: %v", tt.states, err)
		}
		_, _, derr := b.Draft(d.ID)
		if tt.draftKept != (derr == nil) {
			t.Errorf("after %v: the draft: %v, want kept %v", tt.states, derr, tt.draftKept)
		}
		if _, err := b.Claim(e.ID); tt.removed && !errors.Is(err, ErrNotFound) {
			t.Errorf("after %v: claiming the removed entry: %v", tt.states, err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(b.outbox, "*.lock"))
	if all, _ := b.Entries(); len(left) > len(all) {
		t.Errorf("%d lock files for %d entries", len(left), len(all))
	}
}

// A done entry whose removal was cut short (Remove met another claim, or
// the process died) is finished by Recover, draft and all.
func TestRecoverFinishesDone(t *testing.T) {
	b := openBox(t)
	d, _ := b.NewDraft("work", "new", nil, []byte("text"))
	e := enqueue(t, b, Entry{DraftID: d.ID})
	c, _ := b.Claim(e.ID)
	for _, s := range []State{StateSending, StateSent, StateDone} {
		if err := c.Mark(s, nil); err != nil {
			t.Fatal(err)
		}
	}
	c.Release()
	changed, err := b.Recover()
	if err != nil || len(changed) != 1 || changed[0].State != StateDone {
		t.Fatalf("Recover: %+v %v", changed, err)
	}
	if all, _ := b.Entries(); len(all) != 0 {
		t.Errorf("entries %+v", all)
	}
	if list, _ := b.Drafts(); len(list) != 0 {
		t.Errorf("drafts %+v", list)
	}
}

// Claims exclude each other between goroutines of one process as between
// processes: of many racing for one entry, one wins.
func TestClaimOnceAmongGoroutines(t *testing.T) {
	b := openBox(t)
	e := enqueue(t, b, Entry{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var won []*Claim
	for range 16 {
		wg.Go(func() {
			c, err := b.Claim(e.ID)
			if errors.Is(err, ErrClaimed) {
				return
			}
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			won = append(won, c)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(won) != 1 {
		t.Fatalf("%d claims held at once", len(won))
	}
	won[0].Release()
	c, err := b.Claim(e.ID)
	if err != nil {
		t.Fatalf("claim after release: %v", err)
	}
	c.Release()
}

// A failed entry (a 550) goes back to its draft for a person to mend:
// the draft it came from, or one made from the copy for Sent, and the
// entry leaves the outbox; an entry in any other state is refused.
func TestReopenAFailedEntry(t *testing.T) {
	b := openBox(t)
	failed := func(e Entry) Entry {
		e = enqueue(t, b, e)
		c, err := b.Claim(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Mark(StateFailed, func(e *Entry) { e.LastError = "550 5.1.1 no such user" }); err != nil {
			t.Fatal(err)
		}
		c.Release()
		return e
	}
	d, err := b.NewDraft("work", "new", nil, []byte("the text"))
	if err != nil {
		t.Fatal(err)
	}
	e := failed(Entry{DraftID: d.ID})
	back, err := b.Reopen(e.ID)
	if err != nil || back.DraftID != d.ID || back.LastError != "550 5.1.1 no such user" {
		t.Fatalf("reopen: %+v %v", back, err)
	}
	if _, text, err := b.Draft(d.ID); err != nil || string(text) != "the text" {
		t.Fatalf("the draft: %q %v", text, err)
	}
	if all, _ := b.Entries(); len(all) != 0 {
		t.Fatalf("entries after reopening: %+v", all)
	}

	back, err = b.Reopen(failed(Entry{}).ID)
	if err != nil || back.DraftID == "" {
		t.Fatalf("reopen without a draft: %+v %v", back, err)
	}
	if _, text, err := b.Draft(back.DraftID); err != nil || !bytes.Equal(text, []byte("saved body")) {
		t.Fatalf("the draft made from the saved body: %q %v", text, err)
	}

	queued := enqueue(t, b, Entry{})
	if _, err := b.Reopen(queued.ID); !errors.Is(err, ErrState) {
		t.Fatalf("reopening a queued entry: %v", err)
	}
}

// SendNow brings a queued entry's time forward (a person quitting while
// it counts down); a claimed one or one past queued is refused.
func TestSendNow(t *testing.T) {
	b := openBox(t)
	now := time.Now()
	e := enqueue(t, b, Entry{SendAt: now.Add(time.Minute)})
	if due, _ := b.Due(now); len(due) != 0 {
		t.Fatalf("due before its time: %+v", due)
	}
	held, err := b.Claim(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SendNow(e.ID, now); !errors.Is(err, ErrClaimed) {
		t.Fatalf("send now while a sender holds it: %v", err)
	}
	held.Release()
	if err := b.SendNow(e.ID, now); err != nil {
		t.Fatal(err)
	}
	if due, _ := b.Due(now); len(due) != 1 || due[0].ID != e.ID {
		t.Fatalf("due after send now: %+v", due)
	}
	c, _ := b.Claim(e.ID)
	c.Mark(StateSending, nil)
	c.Release()
	if err := b.SendNow(e.ID, now); !errors.Is(err, ErrState) {
		t.Fatalf("send now once sending: %v", err)
	}
}
