package outbox

import "fmt"

// State is where an outbox entry is on its way out.
type State string

const (
	StateQueued  State = "queued"  // waiting for SendAt / NextTry
	StateSending State = "sending" // the body may be on the wire: from here on, never re-sent on its own
	StateSent    State = "sent"    // the server answered 250 to the final dot
	StateSaved   State = "saved"   // the copy is in Sent
	StateDone    State = "done"    // the original is flagged; nothing left to do
	StateFailed  State = "failed"  // the server refused it for good; a person decides
	StateUnknown State = "unknown" // cut after the body went out: may have been sent
)

func (s State) String() string { return string(s) }

func (s State) valid() bool {
	switch s {
	case StateQueued, StateSending, StateSent, StateSaved, StateDone, StateFailed, StateUnknown:
		return true
	}
	return false
}

// Actor is who takes a step: the state machine lets each only its own.
type Actor int

const (
	// Sender is the process that claimed the entry to send it.
	Sender Actor = iota
	// Person is a human decision: send again, discard, "it was sent".
	Person
	// Recovery is Recover finding an entry whose sender died.
	Recovery
)

func (a Actor) String() string {
	switch a {
	case Sender:
		return "the sender"
	case Person:
		return "a person"
	case Recovery:
		return "recovery"
	}
	return fmt.Sprintf("actor %d", int(a))
}

type step struct {
	from, to State
	by       Actor
}

// steps is every step allowed. Two are beyond the list, both the
// sender's and both before any body is written: queued→queued (a failure
// before DATA's body, retried later with backoff) and queued→failed (a
// 5xx before the body: refused for good). The SMTP layer marks "sending"
// only in its BeforeBody hook, so those failures find the entry queued.
var steps = map[step]bool{
	{StateQueued, StateSending, Sender}: true,
	{StateQueued, StateQueued, Sender}:  true,
	{StateQueued, StateFailed, Sender}:  true,
	{StateSending, StateSent, Sender}:   true,
	{StateSending, StateFailed, Sender}: true,
	// A failure the server answered (4xx to the dot) or a cut before
	// the body: nothing was delivered, so it is safe to try again.
	{StateSending, StateQueued, Sender}:  true,
	{StateSending, StateUnknown, Sender}: true,
	{StateSent, StateSaved, Sender}:      true,
	// The copy in Sent or the flag could not be done now: the entry
	// keeps its state and says when it tries again (NextTry).
	{StateSent, StateSent, Sender}:   true,
	{StateSaved, StateSaved, Sender}: true,
	{StateSent, StateDone, Sender}:   true, // no copy to save
	{StateSaved, StateDone, Sender}:  true,
	// Its sender died mid-send: nobody knows whether it went.
	{StateSending, StateUnknown, Recovery}: true,
	// Only a person may send an unknown or failed message again, or say
	// an unknown one was sent.
	{StateUnknown, StateQueued, Person}: true,
	{StateUnknown, StateDone, Person}:   true,
	{StateFailed, StateQueued, Person}:  true,
}

// Step is the one check of every transition an entry makes: nil when
// `by` may move an entry from `from` to `to`, else an ErrState naming
// all three.
func Step(from, to State, by Actor) error {
	if !to.valid() {
		return fmt.Errorf("outbox: state %q: %w (not a state)", to, ErrInvalid)
	}
	if steps[step{from, to, by}] {
		return nil
	}
	return fmt.Errorf("outbox: %s cannot take an entry from %s to %s: %w", by, from, to, ErrState)
}
