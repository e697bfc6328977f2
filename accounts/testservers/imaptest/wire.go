package imaptest

import (
	"bytes"
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
