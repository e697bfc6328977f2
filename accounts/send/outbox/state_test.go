package outbox

import (
	"errors"
	"slices"
	"testing"
	"time"
)

var allStates = []State{StateQueued, StateSending, StateSent, StateSaved, StateDone, StateFailed, StateUnknown}

// Every (from, to, actor) is checked: exactly the steps below pass, each
// by its actor only; every other is ErrState.
func TestStep(t *testing.T) {
	allowed := []step{
		{StateQueued, StateSending, Sender},
		{StateQueued, StateQueued, Sender},
		{StateQueued, StateFailed, Sender},
		{StateSending, StateSent, Sender},
		{StateSending, StateFailed, Sender},
		{StateSending, StateQueued, Sender},
		{StateSending, StateUnknown, Sender},
		{StateSent, StateSaved, Sender},
		{StateSent, StateSent, Sender},
		{StateSaved, StateSaved, Sender},
		{StateSent, StateDone, Sender},
		{StateSaved, StateDone, Sender},
		{StateSending, StateUnknown, Recovery},
		{StateUnknown, StateQueued, Person},
		{StateUnknown, StateDone, Person},
		{StateFailed, StateQueued, Person},
	}
	for _, from := range allStates {
		for _, to := range allStates {
			for _, by := range []Actor{Sender, Person, Recovery} {
				err := Step(from, to, by)
				want := slices.Contains(allowed, step{from, to, by})
				if want && err != nil || !want && !errors.Is(err, ErrState) {
					t.Errorf("%s: %s → %s: %v, want allowed %v", by, from, to, err, want)
				}
			}
		}
	}
	if err := Step(StateQueued, "posted", Sender); !errors.Is(err, ErrInvalid) {
		t.Errorf("an unknown state: %v", err)
	}
}

// A refused step changes nothing on disk; an allowed one is on disk when
// Mark returns, with what edit filled in, and a retry after a failure
// that sent nothing counts an attempt.
func TestMarkWritesOnlyAllowedSteps(t *testing.T) {
	b := openBox(t)
	e := enqueue(t, b, Entry{})
	c, err := b.Claim(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	for _, bad := range []State{StateSent, StateSaved, StateDone, StateUnknown} {
		if err := c.Mark(bad, nil); !errors.Is(err, ErrState) {
			t.Errorf("queued → %s: %v", bad, err)
		}
	}
	if got := onDisk(t, b, e.ID); got.State != StateQueued {
		t.Fatalf("after refused steps the entry is %s", got.State)
	}
	if err := c.Mark(StateSending, nil); err != nil {
		t.Fatal(err)
	}
	if got := onDisk(t, b, e.ID); got.State != StateSending {
		t.Fatalf("Mark returned, the disk says %s", got.State)
	}
	next := e.SendAt.Add(time.Minute)
	if err := c.Mark(StateQueued, func(e *Entry) { e.NextTry, e.LastError, e.Account = next, "421 try later", "other" }); err != nil {
		t.Fatal(err)
	}
	got := onDisk(t, b, e.ID)
	if got.State != StateQueued || got.Attempts != 1 || !got.NextTry.Equal(next) || got.LastError != "421 try later" || got.Account != e.Account {
		t.Fatalf("after a retry: %+v", got)
	}
	if due, _ := b.Due(next.Add(-time.Second)); len(due) != 0 {
		t.Errorf("due before its NextTry: %+v", due)
	}
	if due, _ := b.Due(next); len(due) != 1 {
		t.Errorf("not due at its NextTry: %+v", due)
	}
	c.Release()
	if err := c.Mark(StateSending, nil); err == nil {
		t.Error("Mark after Release succeeded")
	}
}
