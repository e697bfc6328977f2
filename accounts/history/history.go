// Package history is what an account went through, kept so that a user
// can read it after the fact: state changes with their class and reason,
// pushes, listings, triage outcomes. Each account keeps its newest events
// in memory (the details view shows them) and appends every event as a
// JSON line to $XDG_STATE_HOME/unibox/<account>.log, which `unibox status
// --history` prints. Text is scrubbed of the account's secrets before it
// is kept anywhere.
package history

import (
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Event kinds.
const (
	KindState   = "state"   // a connection state change
	KindListing = "listing" // a folder listed, or a listing that failed
	KindPush    = "push"    // the provider said a folder changed
	KindTriage  = "triage"  // an action's outcome
	KindDraft   = "draft"   // a draft created, edited, sent or discarded, by an agent or a person
	KindSnooze  = "snooze"  // a message snoozed, woken, undone or dropped from the schedule
	KindRule    = "rule"    // a rule's action, or why it did not act
	// KindCalendar: an accepted invitation handed to [calendar] add_cmd,
	// or why it was not.
	KindCalendar = "calendar"
)

// Event is one line of an account's history.
type Event struct {
	Time    time.Time `json:"time"`
	Account string    `json:"account"`
	Kind    string    `json:"kind"`
	State   string    `json:"state,omitempty"`
	Class   string    `json:"class,omitempty"`
	Text    string    `json:"text"`
	PID     int       `json:"pid"` // the unibox process that wrote it
}

// RingSize is how many events an account keeps in memory.
const RingSize = 200

// Log is one account's history.
type Log struct {
	account string
	scrub   func(string) string
	file    *File // nil: memory only (--demo, tests)

	mu   sync.Mutex
	ring []Event // oldest first, at most RingSize
	err  error   // the last failure to write the file, said once in the details
}

// New keeps account's history in memory, and in file unless it is nil;
// scrub removes secrets from every text.
func New(account string, scrub func(string) string, file *File) *Log {
	if scrub == nil {
		scrub = func(s string) string { return s }
	}
	return &Log{account: account, scrub: scrub, file: file}
}

// Add records an event now.
func (l *Log) Add(kind, state, class, text string) {
	if l == nil {
		return
	}
	e := Event{Time: time.Now(), Account: l.account, Kind: kind, State: state, Class: class, Text: l.scrub(text), PID: os.Getpid()}
	l.mu.Lock()
	if len(l.ring) == RingSize {
		copy(l.ring, l.ring[1:])
		l.ring = l.ring[:RingSize-1]
	}
	l.ring = append(l.ring, e)
	l.mu.Unlock()
	if l.file == nil {
		return
	}
	line, err := json.Marshal(e)
	if err == nil {
		err = l.file.Append(append(line, '\n'))
	}
	l.mu.Lock()
	l.err = err
	l.mu.Unlock()
}

// Recent is the newest n events, oldest first, scrubbed again: the
// account may have learnt a secret since an event was added.
func (l *Log) Recent(n int) []Event {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	from := max(0, len(l.ring)-n)
	out := append([]Event(nil), l.ring[from:]...)
	l.mu.Unlock()
	return Scrub(out, l.scrub)
}

// Scrub removes secrets from the text of events read back (an older
// version's file may hold a secret in a form it did not know), in place.
func Scrub(events []Event, scrub func(string) string) []Event {
	for i := range events {
		events[i].Text = scrub(events[i].Text)
	}
	return events
}

// Problem is the last failure to write the history file ("" if none).
func (l *Log) Problem() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		return ""
	}
	return l.err.Error()
}
