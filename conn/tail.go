package conn

import "sync"

// Tail keeps the last bytes written to it: a child's stderr, kept for
// diagnostics and never sent to the terminal (it would draw over the TUI).
type Tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

// NewTail keeps at most max bytes.
func NewTail(max int) *Tail { return &Tail{max: max} }

// Write never fails, so a chatty child is never blocked on its stderr.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.max {
		p = p[len(p)-t.max:]
		t.buf = append(t.buf[:0], p...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String returns what is kept.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
