// Package secret is the one place secrets are scrubbed from text: error
// messages, stderr tails, anything stored or shown. One rule set: every
// occurrence of a secret of three bytes or more becomes "***", longest
// secret first (so one that contains another goes whole); shorter ones
// would blank out ordinary words and are left.
package secret

import (
	"slices"
	"strings"
	"sync"
)

// Mask replaces a scrubbed secret.
const Mask = "***"

// minLen is the shortest secret scrubbed.
const minLen = 3

// Redact scrubs every one of secrets from text.
func Redact(text string, secrets ...string) string {
	if len(secrets) > 1 {
		secrets = slices.Clone(secrets)
		slices.SortFunc(secrets, func(x, y string) int { return len(y) - len(x) })
	}
	for _, s := range secrets {
		if len(s) >= minLen {
			text = strings.ReplaceAll(text, s, Mask)
		}
	}
	return text
}

// Box remembers the secrets an account has handed out (a password fetched
// on connect, a token), in memory only, to scrub them from any text
// later. It is safe for concurrent use; the zero value is empty.
type Box struct {
	mu sync.Mutex
	s  []string // longest first
}

// Add remembers s.
func (b *Box) Add(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s != "" && !slices.Contains(b.s, s) {
		b.s = append(b.s, s)
		slices.SortFunc(b.s, func(x, y string) int { return len(y) - len(x) })
	}
}

// Redact scrubs every secret remembered so far from text.
func (b *Box) Redact(text string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Redact(text, b.s...)
}
