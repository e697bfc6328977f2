package store

import (
	"database/sql"
	"testing"
	"time"
)

// A write that failed leaves the threads to be built again; the next
// writes must not wedge the store: one holds its transaction (the one
// connection) while another builds the threads. A build that took th.mu
// before the connection waited for it for good, and the first write
// waited for th.mu: every later read and write of the process hung (CI
// saw a search and a sync stuck behind it).
func TestBuildAfterAFailedWriteDoesNotWedge(t *testing.T) {
	s := newStore(t)
	<-s.upgraded
	if err := s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 1, Messages: msgs(1, 2, 1)}); err != nil {
		t.Fatal(err)
	}
	inTx, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.write(ctx, func(tx *sql.Tx) error {
			close(inTx)
			<-release
			return nil
		})
	}()
	<-inTx
	s.threads.mu.Lock()
	s.threads.t = nil // as a failed write leaves it
	s.threads.mu.Unlock()
	second := make(chan error, 1)
	go func() {
		second <- s.Save(ctx, work, Listing{Folder: "INBOX", UIDValidity: 1, Messages: msgs(1, 3, 2, 1)})
	}()
	// Give the second write time to reach the build (not a sync: either
	// order must end in both writes done).
	time.Sleep(100 * time.Millisecond)
	close(release)
	for i, ch := range []chan error{first, second} {
		select {
		case err := <-ch:
			if err != nil {
				t.Fatalf("write %d: %v", i+1, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("write %d never finished: the store is wedged", i+1)
		}
	}
	if _, err := s.Newest(ctx, work, "INBOX", 10); err != nil {
		t.Fatal(err)
	}
}
