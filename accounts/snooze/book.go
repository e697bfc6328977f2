package snooze

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// Book opens the schedule on first need, shared by every account of a
// process: a face that never snoozes never makes the file, and one that
// only checks for due wakes finds nothing to do while there is none.
type Book struct {
	path string
	mu   sync.Mutex
	s    *Schedule
}

// NewBook is the schedule at path, not opened yet.
func NewBook(path string) *Book { return &Book{path: path} }

// Path is where the schedule is kept.
func (b *Book) Path() string { return b.path }

// Get is the open schedule. Without create, a schedule that does not
// exist yet is nil with no error (nothing is snoozed).
func (b *Book) Get(create bool) (*Schedule, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.s != nil {
		return b.s, nil
	}
	if !create {
		if _, err := os.Stat(b.path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
	}
	s, err := Open(b.path)
	if err != nil {
		return nil, err
	}
	b.s = s
	return s, nil
}

// Close closes the schedule if it was opened.
func (b *Book) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.s == nil {
		return nil
	}
	err := b.s.Close()
	b.s = nil
	return err
}
