package outbox

import (
	"crypto/rand"
	"fmt"
)

// newID is a random id that is safe as a file name: 26 characters of
// base32 (A-Z, 2-7), 130 bits, so two processes never make the same one
// and an id is never reused (Claim relies on that: an entry once removed
// never comes back under its id).
func newID() string { return rand.Text() }

// checkID refuses an id that could name another file (a path, "..", a
// temp file): ids come back from callers, and from the agent face.
func checkID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("outbox: id %q: %w (1 to 64 characters)", id, ErrInvalid)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("outbox: id %q: %w (letters, digits, - and _ only)", id, ErrInvalid)
		}
	}
	return nil
}
