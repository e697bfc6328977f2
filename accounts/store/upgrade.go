package store

import "context"

// upgradeInBackground brings the rows of an upgraded file up to the
// schema after Open has returned: threads for rows from before threads
// (v1-v4), then the search index for rows from before it (v1-v5), or
// either where a kill cut the work short. Each goes one write per chunk,
// so a launch draws from the store while it goes on and other writes go
// between chunks. Close stops it; the next Open resumes it, since what
// is left is read from the rows.
func (s *Store) upgradeInBackground() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stopUpgrade, s.upgraded = cancel, make(chan struct{})
	go func() {
		defer close(s.upgraded)
		s.threadOlder(ctx)
		for ctx.Err() == nil {
			n, err := s.IndexOlder(ctx, indexChunk)
			if err != nil || n == 0 {
				return // an error: the next Open goes on
			}
		}
	}()
}
