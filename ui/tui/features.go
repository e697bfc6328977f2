package tui

import (
	"context"

	"unibox/accounts"
	"unibox/model"
)

// featured is an account that hands out feature handles
// (accounts.Account): the UI asks it for a handle here, once per
// feature, instead of asserting an interface per operation.
type featured interface {
	Snoozing() *accounts.Snoozing
	Unsubscribing() *accounts.Unsubscribing
	Threads() *accounts.Threads
}

// snoozerOf is acct's snooze handle, nil when it has none.
func snoozerOf(acct Account) *accounts.Snoozing {
	if f, ok := acct.(featured); ok {
		return f.Snoozing()
	}
	return nil
}

// unsubscriberOf is acct's unsubscribe handle, nil when it has none.
func unsubscriberOf(acct Account) *accounts.Unsubscribing {
	if f, ok := acct.(featured); ok {
		return f.Unsubscribing()
	}
	return nil
}

// threadReader reads a conversation from the store: accounts.Threads,
// or a test's account that reads its own.
type threadReader interface {
	Thread(ctx context.Context, tid string) ([]model.Message, error)
}

// threadsOf is acct's conversation reader, nil when it has none.
func threadsOf(acct Account) threadReader {
	if f, ok := acct.(featured); ok {
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
