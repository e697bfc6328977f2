package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"time"
)

// A store file can be damaged while unibox runs, or in pages Open never
// reads: a disk that filled up, a file copied half-way. Open does not read
// the whole file (SQLite's quick_check costs a few milliseconds per 10,000
// messages on every launch, most of a launch from the store); instead the
// first statement that meets damaged pages gets SQLITE_CORRUPT, and the
// store sets the file aside and goes on with a new one, as Open does for a
// file it cannot use. Verify reads the whole file on purpose, later.

// use runs f on the current database, and sets the file aside when f found
// it damaged.
func (s *Store) use(f func(*sql.DB) error) error {
	s.mu.RLock()
	db := s.db
	err := f(db)
	s.mu.RUnlock()
	if err != nil && setAside(err) && s.path != "" {
		s.recover(db, err)
	}
	return err
}

// recover sets the damaged file aside and opens a new one in its place,
// unless another call has done so already.
func (s *Store) recover(bad *sql.DB, cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db != bad {
		return
	}
	bad.Close()
	aside, err := moveAside(s.path)
	var fresh *Store
	if err == nil {
		fresh, err = Open(s.path)
	}
	if err != nil {
		// Nothing better to do than to go on failing with a clear error.
		s.db, _ = sql.Open("sqlite", fileDSN(s.path))
		s.problem = fmt.Sprintf("local store %s is damaged (%v) and could not be replaced: %v", s.path, cause, err)
		return
	}
	fresh.stopUpgrade() // a new file: nothing to thread, and s threads its own
	<-fresh.upgraded
	s.db = fresh.db
	s.problem = fmt.Sprintf("local store %s was damaged (%v): set aside as %s, starting a new one", s.path, cause, filepath.Base(aside))
}

// Problem says, once the file was set aside while open, what happened
// ("" if nothing did).
func (s *Store) Problem() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.problem
}

// Verify reads the whole file and sets it aside if it is damaged.
func (s *Store) Verify(ctx context.Context) error {
	return s.read(ctx, check)
}

// VerifyAfter runs Verify once, after d, in the background (never during a
// launch); Close cancels it. A short-lived process (`unibox list`) exits
// before it runs, and relies on meeting damage as it reads.
func (s *Store) VerifyAfter(d time.Duration) {
	if s.path == "" || s.verify != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.verify, s.done = cancel, make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			_ = s.Verify(ctx)
		case <-ctx.Done():
		}
	}()
}
