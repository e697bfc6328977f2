package query

import (
	"errors"
	"fmt"
)

// Error is a query that cannot be read: it names the token and where it
// starts (a 1-based column in characters), so a person can find it in
// what they typed and an agent can fix its call.
type Error struct {
	Pos   int
	Token string
	Why   string
}

func (e *Error) Error() string {
	return fmt.Sprintf("query: %q at column %d: %s", e.Token, e.Pos, e.Why)
}

// ErrEmpty is a query with nothing to search for (only spaces or
// punctuation).
var ErrEmpty = errors.New("query: nothing to search for")
