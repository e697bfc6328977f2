package screen

import (
	"context"

	"unibox/accounts"
	"unibox/accounts/history"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/review"
)

// featured is an account that hands out feature handles
// (accounts.Account): the UI asks it for a handle here, once per
// feature, instead of asserting an interface per operation.
type featured interface {
	Sending() *accounts.Sending
	// Known is whom the account has written to (accounts.Account.Known):
	// with its sending handle, what Composing asks.
	Known(ctx context.Context, box *outbox.Box, addrs []string) review.Known
	Snoozing() *accounts.Snoozing
	Unsubscribing() *accounts.Unsubscribing
	Threads() *accounts.Threads
	Stored() *accounts.Stored
	Watching() *accounts.Watching
	Counting() *accounts.Counting
	Screener() *accounts.Screener
	History(n int) []history.Event
}

// featuresOf is acct as an account with feature handles: the one place
// the UI asks what kind of account it has; false for a test's account,
// which says what it can do with its own methods.
func featuresOf(acct Account) (featured, bool) {
	f, ok := acct.(featured)
	return f, ok
}

// SnoozerOf is acct's snooze handle, nil when it has none.
func SnoozerOf(acct Account) *accounts.Snoozing {
	if f, ok := featuresOf(acct); ok {
		return f.Snoozing()
	}
	return nil
}

// UnsubscriberOf is acct's unsubscribe handle, nil when it has none.
func UnsubscriberOf(acct Account) *accounts.Unsubscribing {
	if f, ok := featuresOf(acct); ok {
		return f.Unsubscribing()
	}
	return nil
}

// threadReader reads a conversation from the store: accounts.Threads,
// or a test's account that reads its own.
type threadReader interface {
	Thread(ctx context.Context, tid string) ([]model.Message, error)
}

// ThreadsOf is acct's conversation reader, nil when it has none.
func ThreadsOf(acct Account) threadReader {
	if f, ok := featuresOf(acct); ok {
		if t := f.Threads(); t != nil {
			return t
		}
		return nil
	}
	if tr, ok := acct.(threadReader); ok {
		return tr
	}
	return nil
}

// ComposerOf is acct as Composing: an accounts.Account's sending handle
// with its Known, or a test's account that composes itself.
func ComposerOf(acct Account) (Composing, bool) {
	if f, ok := featuresOf(acct); ok {
		if s := f.Sending(); s != nil {
			return sendingComposer{Sending: s, known: f}, true
		}
		return nil, false
	}
	c, ok := acct.(Composing)
	return c, ok
}

// sendingComposer is Composing made of a sending handle and its
// account's Known.
type sendingComposer struct {
	*accounts.Sending
	known featured
}

// Known is the account's.
func (c sendingComposer) Known(ctx context.Context, box *outbox.Box, addrs []string) review.Known {
	return c.known.Known(ctx, box, addrs)
}

// StoredOf is acct's store handle: its stored rows are drawn before its
// server answers, and its folder is synced a step at a time instead of
// listed; nil when it has none (a test's account, listed every time).
func StoredOf(acct Account) *accounts.Stored {
	if f, ok := featuresOf(acct); ok {
		return f.Stored()
	}
	return nil
}

// WatchingOf is acct's push handle (IMAP IDLE, and the folder it
// follows): the UI lists again at once instead of at the next refresh;
// nil when it has none.
func WatchingOf(acct Account) *accounts.Watching {
	if f, ok := featuresOf(acct); ok {
		return f.Watching()
	}
	return nil
}

// CountingOf is acct's unread counts handle: the badge, the title and
// the folder picker say the folder's own count, not the loaded rows';
// nil for a test's account, whose rows are all it has.
func CountingOf(acct Account) *accounts.Counting {
	if f, ok := featuresOf(acct); ok {
		return f.Counting()
	}
	return nil
}

// ScreenerOf is acct's screener handle when it screens (screener =
// "new_senders"); nil when it does not.
func ScreenerOf(acct Account) *accounts.Screener {
	if f, ok := featuresOf(acct); ok {
		if s := f.Screener(); s != nil && s.On() {
			return s
		}
	}
	return nil
}

// HistoryOf is acct's newest n events for the details; none when it
// keeps no history.
func HistoryOf(acct Account, n int) []history.Event {
	if f, ok := featuresOf(acct); ok {
		return f.History(n)
	}
	return nil
}

// FilerOf is what drafting files a postponed draft through: an
// account's sending handle, or a test's account that files itself.
func FilerOf(acct Account) (drafting.Filing, bool) {
	if f, ok := featuresOf(acct); ok {
		s := f.Sending()
		return s, s != nil
	}
	d, ok := acct.(drafting.Filing)
	return d, ok
}

// DeleterOf is what drafting deletes a server's copy of a draft through;
// nil: it cannot (drafting says so, naming the copy's account).
func DeleterOf(acct Account) drafting.Deleter {
	if f, ok := featuresOf(acct); ok {
		if s := f.Sending(); s != nil {
			return s
		}
		return nil
	}
	if d, ok := acct.(drafting.Deleter); ok {
		return d
	}
	return nil
}

// EventerOf is where a person's step on a draft is noted (the account's
// history), false when the account keeps none.
func EventerOf(acct Account) (drafting.Eventer, bool) {
	if f, ok := featuresOf(acct); ok {
		s := f.Sending()
		return s, s != nil
	}
	e, ok := acct.(drafting.Eventer)
	return e, ok
}

// CalendarNoter notes in an account's history what became of an
// accepted invitation (accounts.Sending's CalendarEvent).
type CalendarNoter interface{ CalendarEvent(text string) }

// CalendarNoterOf is acct's history for accepted invitations, nil when
// it keeps none (a test's account).
func CalendarNoterOf(acct Account) CalendarNoter {
	if f, ok := featuresOf(acct); ok {
		if s := f.Sending(); s != nil {
			return s
		}
	}
	return nil
}
