package accounts

// Feature handles: what an account can do beyond reading and triage
// (sending, snooze, unsubscribe, conversations, the store, pushes, unread
// counts) is a small type of its own, made
// by Open from one list (features) and asked for by the faces through
// one accessor each, so that Account does not grow a method per
// operation and a face asks "can it?" in one place.

// features wires an account's handles; Open runs each once, after the
// account is built. A feature the account lacks leaves its handle nil.
var features = []func(*Account){
	func(a *Account) { a.feat.send = &Sending{a: a} },
	func(a *Account) { a.feat.snooze = &Snoozing{a: a} },
	func(a *Account) { a.feat.unsub = &Unsubscribing{a: a} },
	func(a *Account) { a.feat.threads = &Threads{c: &a.cache} },
	func(a *Account) { a.feat.stored = &Stored{a: a} },
	func(a *Account) { a.feat.watch = &Watching{a: a} },
	func(a *Account) { a.feat.counts = &Counting{a: a} },
	func(a *Account) { a.feat.screen = &Screener{a: a} },
}

// handles are an account's feature handles (nil: it lacks the feature).
type handles struct {
	send    *Sending
	snooze  *Snoozing
	unsub   *Unsubscribing
	threads *Threads
	stored  *Stored
	watch   *Watching
	counts  *Counting
	screen  *Screener
}

// wire makes a's feature handles from the list.
func (a *Account) wire() *Account {
	for _, f := range features {
		f(a)
	}
	return a
}

// Sending is the account's sending handle. Every account has one: one
// that cannot send says why on each call (CanSend, Send).
func (a *Account) Sending() *Sending { return a.feat.send }

// Snoozing is the account's snooze handle. Every account has one: one
// whose schedule is off says why on each call (ErrSnoozeOff), which the
// faces show.
func (a *Account) Snoozing() *Snoozing { return a.feat.snooze }

// Unsubscribing is the account's unsubscribe handle. Every account has
// one: a provider that cannot read the headers says so on each call
// (ErrUnsupported).
func (a *Account) Unsubscribing() *Unsubscribing { return a.feat.unsub }

// Threads is the account's handle on the conversations in the store.
// Every account has one: without a store its calls answer
// store.ErrNotStored.
func (a *Account) Threads() *Threads { return a.feat.threads }
