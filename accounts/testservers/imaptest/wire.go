package imaptest

import (
	"bytes"
	"strings"
	"sync"
)

// Wire is a goroutine-safe buffer: an IMAP wire log (go-imap's
// DebugWriter) or a pseudo-terminal's output, written by one goroutine
// while the test reads it from another.
type Wire struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *Wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// String is everything written so far.
func (w *Wire) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// Envelopes counts the envelopes a server sent (its wire log) since the
// last count: what a sync or a listing cost it.
func (w *Wire) Envelopes() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := strings.Count(w.b.String(), "ENVELOPE (")
	w.b.Reset()
	return n
}
