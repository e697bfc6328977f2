package store

import "context"

// upgradeInBackground brings the rows of an upgraded file up to the
// schema after Open has returned (and after OpenHeld's hold): the contacts index for rows from
// before it (v1-v6, in one write), threads for rows from before threads
// (v1-v4), then the search index for rows from before it (v1-v5), or
// any of them where a kill cut the work short. Threads and the search
// index go one write per chunk, so a launch draws from the store while
// it goes on and other writes go between chunks. Close stops it; the next Open resumes it, since what
// is left is read from the rows.
func (s *Store) upgradeInBackground() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stopUpgrade, s.upgraded = cancel, make(chan struct{})
	go func() {
		defer close(s.upgraded)
		if s.hold != nil {
			select {
			case <-s.hold:
			case <-ctx.Done():
				return
			}
		}
		// The contacts first: one write, and what a To: prompt needs.
		_ = s.buildContacts(ctx) // an error: the next Open builds them
		s.threadOlder(ctx)
		for ctx.Err() == nil {
			n, err := s.IndexOlder(ctx, indexChunk)
			if err != nil || n == 0 {
				return // an error: the next Open goes on
			}
		}
	}()
}
