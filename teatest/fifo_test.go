package teatest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifo is a named pipe the test holds open both ways: what a child writes
// into it arrives as an event (no file polled), a child's write never
// blocks for want of a reader, and a read never ends early for want of a
// writer. Reads are bounded, as a failure bound only.
type fifo struct {
	path string
	f    *os.File
	r    *bufio.Reader
}

func newFifo(t *testing.T, name string) *fifo {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &fifo{path: path, f: f, r: bufio.NewReader(f)}
}

// line waits for the next line written into the pipe.
func (p *fifo) line(t *testing.T) string {
	t.Helper()
	if err := p.f.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	s, err := p.r.ReadString('\n')
	if err != nil {
		t.Fatalf("%s: no line within 10s: %v (read %q)", filepath.Base(p.path), err, s)
	}
	return strings.TrimSuffix(s, "\n")
}
