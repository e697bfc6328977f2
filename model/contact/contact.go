// Package contact is what completes a recipient: an address the person
// has written to or heard from, ranked, and the one question every face
// asks of the contacts index (the TUI's To: prompt, `unibox contacts`,
// the agent's lookup_contact).
package contact

import (
	"context"
	"time"
)

// Contact is one address as the index knows it. Name is the display name
// the person last wrote it with, else the one last received (a name from
// received mail never overrides one the person wrote); faces always show
// Address beside it, so a stranger's "Mom" <evil@…> cannot pass for Mom.
type Contact struct {
	Address  string
	Name     string
	Sent     int       // messages the person wrote to it (Sent with own From; the outbox's record alone says 1)
	Received int       // messages it wrote to the person
	Last     time.Time // the newest of either
	// List is a mailing-list or no-reply address (ranked last).
	List bool
}

// Book answers a typed query (a prefix of an address, a name or a word
// of it) with contacts best first, at most limit of them. An error says
// what could not be asked (the store, an address book); the contacts
// returned beside it are what could.
type Book interface {
	Lookup(ctx context.Context, query string, limit int) ([]Contact, error)
}
