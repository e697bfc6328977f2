package store

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// indexerChild opens a store from before the index (Open migrates it and
// indexes its older rows in the background, a chunk per write) and says
// how many rows are left unindexed each time that changes, until none is
// or it is killed.
func indexerChild() error {
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		return err
	}
	defer s.Close()
	last := -1
	for deadline := time.Now().Add(childLimit); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		var left int
		if err := s.db.QueryRow(`SELECT count(*) FROM message WHERE docid IS NULL`).Scan(&left); err != nil {
			return err
		}
		if left != last {
			if _, err := fmt.Println(left); err != nil {
				return err // the parent is gone
			}
			last = left
		}
		if left == 0 {
			return nil
		}
	}
	return fmt.Errorf("still %d rows unindexed", last)
}

// A process killed (SIGKILL) while it indexes an upgraded store's older
// rows loses nothing: each time, at the start, after a first chunk and
// halfway, the file opens whole, FTS5's own integrity check passes, what
// was indexed stays indexed, and the next start finishes the rest: then
// every row is found exactly once.
func TestKilledIndexerLosesNothing(t *testing.T) {
	acrossProcesses(t)
	n := 3000
	if raceEnabled {
		n = 1000 // SQLite under the race detector is ~25x slower
	}
	path := v4File(t, n)
	for k, killBelow := range []int{n, n - indexChunk, n / 2} {
		c := startChild(t, "indexer", envPath+"="+path)
		left := -1
		for left < 0 || left > killBelow || left == n && killBelow < n {
			l, ok := c.line()
			if !ok {
				t.Fatalf("kill %d: the indexer stopped: %s", k, c.failure(c.wait()))
			}
			v, err := strconv.Atoi(l)
			if err != nil {
				t.Fatalf("kill %d: the indexer said %q", k, l)
			}
			left = v
			if left == 0 {
				t.Fatalf("kill %d: all indexed before the kill at %d left", k, killBelow)
			}
		}
		if err := c.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		c.wait()

		s, err := Open(path)
		if err != nil {
			t.Fatalf("kill %d: %v", k, err)
		}
		s.stopUpgrade() // look at what the killed one left, then go on
		<-s.upgraded
		if s.Warning != "" {
			s.Close()
			t.Fatalf("kill %d: the store was set aside: %s", k, s.Warning)
		}
		integrityOK(t, s)
		if _, err := s.db.Exec(`INSERT INTO search(search) VALUES ('integrity-check')`); err != nil {
			t.Fatalf("kill %d: the index fails its integrity check: %v", k, err)
		}
		var unindexed int
		s.db.QueryRow(`SELECT count(*) FROM message WHERE docid IS NULL`).Scan(&unindexed)
		if unindexed > left {
			t.Fatalf("kill %d: %d rows unindexed, but the indexer had only %d left", k, unindexed, left)
		}
		t.Logf("kill %d at %d rows left: %d left after", k, left, unindexed)
		s.Close()
	}

	s, err := Open(path) // the next start finishes it
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	<-s.upgraded
	got := hits(t, s, "subject:subject")
	want := make([]uint32, n)
	for i := range want {
		want[i] = uint32(i + 1)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("after the kills, subject:subject finds %d rows (want each of %d once)", len(got), n)
	}
	if _, err := s.db.Exec(`INSERT INTO search(search) VALUES ('integrity-check')`); err != nil {
		t.Fatalf("the finished index fails its integrity check: %v", err)
	}
	// No document left behind by a chunk cut short: the index holds one
	// per row, each a row's docid.
	var docs, strays int
	s.db.QueryRow(`SELECT count(*) FROM search_docsize`).Scan(&docs)
	s.db.QueryRow(`SELECT count(*) FROM search_docsize WHERE id NOT IN (SELECT docid FROM message WHERE docid IS NOT NULL)`).Scan(&strays)
	if docs != n || strays != 0 {
		t.Fatalf("the index holds %d documents (%d of no row) for %d rows", docs, strays, n)
	}
}
