// Package contacts is the contacts index every face asks (issue 38): a
// contact.Book over the store's count of who wrote to whom (store's
// correspondent rows), the outbox's sent-to record (which survives a
// wiped cache) and, where configured, an external address book
// (address_book_cmd). The TUI's To: prompt, `unibox contacts` and the
// agent's lookup_contact ask the same Book.
//
// What the person wrote vouches for an address; what others wrote only
// says what they claim. So an address counts as written to only by a
// message in the account's Sent folder whose From is one of the
// account's own addresses (from, aliases), or by the outbox's record of
// what it sent; its name is the one the person wrote, and a name from
// received mail is shown only where the person never wrote one, always
// beside its address.
package contacts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"unibox/accounts/send/outbox"
	"unibox/accounts/store"
	"unibox/model/contact"
)

// Source is what the index reads of one account.
type Source struct {
	// Account is its name: the outbox's sent-to record is kept by it.
	Account string
	// Key is its mailbox in the store.
	Key store.Key
	// Own are its own addresses (from, aliases): a message in its Sent
	// folder from one of them is the person's writing.
	Own []string
}

// Options are what a Book is built over; any of them may be missing.
type Options struct {
	Store   *store.Store // nil: no store (the outbox's record only)
	Sources []Source
	Outbox  *outbox.Box // nil: no record
	// External is address_book_cmd's book (nil: none); its answer is
	// merged with the index's (contact.Merge).
	External contact.Book
}

// DefaultLimit is how many contacts a Lookup with no limit answers.
const DefaultLimit = 10

// Book answers lookups from an index in memory, built again from the
// store and the outbox's record when either changed since (the store's
// contacts version, the record's stamp: one small read and a stat a
// lookup). It is safe for concurrent use.
type Book struct {
	o Options

	mu      sync.Mutex
	index   *contact.Index
	version int64
	stamps  []string
}

// New is a Book over o.
func New(o Options) *Book { return &Book{o: o, version: -1} }

// Lookup answers query with at most limit contacts (DefaultLimit for 0
// or less), best first: the index's and the external book's, merged. An
// error says what could not be asked (the store, the record, the
// external book); the contacts beside it are what could.
func (b *Book) Lookup(ctx context.Context, query string, limit int) ([]contact.Contact, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	var errs []error
	ix, err := b.current(ctx)
	if err != nil {
		errs = append(errs, err)
	}
	var ranked []contact.Entry
	if ix != nil {
		ranked = ix.Lookup(query, limit)
	}
	var external []contact.Contact
	if b.o.External != nil {
		external, err = b.o.External.Lookup(ctx, query, limit)
		if err != nil {
			errs = append(errs, fmt.Errorf("address_book_cmd: %w", err))
		}
	}
	return contact.Merge(ranked, external, limit), errors.Join(errs...)
}

// current is the index as the store and the record stand now, built
// again if either changed; on a failure, the last one built (nil if
// none) with the error.
func (b *Book) current(ctx context.Context) (*contact.Index, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	version := int64(0)
	if b.o.Store != nil {
		v, err := b.o.Store.ContactsVersion(ctx)
		if err != nil {
			return b.index, fmt.Errorf("the local store: %w", err)
		}
		version = v
	}
	stamps := make([]string, len(b.o.Sources))
	if b.o.Outbox != nil {
		for i, s := range b.o.Sources {
			st, err := b.o.Outbox.SentToStamp(s.Account)
			if err != nil {
				return b.index, err
			}
			stamps[i] = st
		}
	}
	if b.index != nil && version == b.version && slices.Equal(stamps, b.stamps) {
		return b.index, nil
	}
	entries, err := b.read(ctx)
	if err != nil {
		return b.index, err
	}
	b.index, b.version, b.stamps = contact.NewIndex(entries), version, stamps
	return b.index, nil
}

// read is every address the store and the record know, as entries.
func (b *Book) read(ctx context.Context) ([]contact.Entry, error) {
	var rows store.Contacts
	if b.o.Store != nil {
		keys := make([]store.Key, len(b.o.Sources))
		for i, s := range b.o.Sources {
			keys[i] = s.Key
		}
		var err error
		if rows, err = b.o.Store.Contacts(ctx, keys); err != nil {
			return nil, fmt.Errorf("the local store: %w", err)
		}
	}
	records := make([]map[string]bool, len(b.o.Sources))
	if b.o.Outbox != nil {
		for i, s := range b.o.Sources {
			rec, err := b.o.Outbox.SentTo(s.Account)
			if err != nil {
				return nil, err
			}
			records[i] = rec
		}
	}
	return tally(b.o.Sources, rows, records), nil
}
