package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"unibox/model"
)

// fetchedText is the text the body fetcher child stores for uid: a word
// every body has, and one of its own.
func fetchedText(uid uint32) string {
	return fmt.Sprintf("fetchedtext w%d %s", uid, "and the rest of a message body, as long as a short mail is")
}

// bodyFetcherChild stores bodies as the background fetch does: a page
// of the rows lacking one, newest first, one SaveFetched a batch,
// printing how many it has stored once each write has returned
// (committed), until nothing is left or it is killed.
func bodyFetcherChild() error {
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		return err
	}
	defer s.Close()
	if s.Warning != "" {
		return fmt.Errorf("open warned: %s", s.Warning)
	}
	stored := 0
	for {
		page, err := s.Unfetched(ctx, crashKey, UnfetchedOptions{Limit: 20})
		if err != nil || len(page) == 0 {
			return err
		}
		bodies := make([]model.Body, len(page))
		for i, u := range page {
			bodies[i] = model.Body{Message: model.Message{ID: u.ID}, Text: fetchedText(u.ID.UID)}
		}
		saved, err := s.SaveFetched(ctx, crashKey, bodies, 1<<30)
		if err != nil {
			return err
		}
		stored += saved.Kept
		if _, err := fmt.Println(stored); err != nil {
			return err // the parent is gone
		}
	}
}

// A fetcher killed (SIGKILL) mid-batch loses nothing: each time, the
// file opens whole, every stored body is in the index and nothing else
// is, the batches committed are there, and the next start goes on from
// what the store lacks until every message has its body.
func TestKilledBodyFetchLosesNothing(t *testing.T) {
	acrossProcesses(t)
	kills, n := 12, 3000
	if raceEnabled || testing.Short() {
		kills, n = 3, 600 // a child under -race takes seconds to start: three kills land at three thirds of a batch
	}
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, crashKey, crashListing(0, n)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	total := 0 // bodies stored by the children before the last kill
	var cycle time.Duration
	for k := 0; ; k++ {
		c := startChild(t, "bodyfetcher", envPath+"="+path)
		last := total
		var at time.Time
		done := false
		for range 1 + k%3 {
			l, ok := c.line()
			if !ok {
				if err := c.wait(); err != nil {
					t.Fatalf("kill %d: the fetcher stopped: %s", k, c.failure(err))
				}
				done = true // nothing was left
				break
			}
			got, err := strconv.Atoi(l)
			if err != nil {
				t.Fatalf("kill %d: the fetcher said %q", k, l)
			}
			if !at.IsZero() {
				cycle = time.Since(at)
			}
			last, at = total+got, time.Now()
		}
		if !done {
			if k >= kills {
				c.wait() // the last start runs to the end
				done = true
			} else {
				// Anywhere in the next batch, from its start to its commit.
				time.Sleep(cycle * time.Duration((k*5)%kills) / time.Duration(kills))
				if err := c.cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				c.wait()
			}
		}
		s, err := Open(path)
		if err != nil {
			t.Fatalf("kill %d: %v", k, err)
		}
		if s.Warning != "" {
			s.Close()
			t.Fatalf("kill %d: the store was set aside: %s", k, s.Warning)
		}
		integrityOK(t, s)
		var bodies, indexed int
		if err := s.db.QueryRow(`SELECT count(*) FROM body`).Scan(&bodies); err != nil {
			t.Fatal(err)
		}
		if err := s.db.QueryRow(`SELECT count(*) FROM search WHERE search MATCH 'body:fetchedtext'`).Scan(&indexed); err != nil {
			t.Fatal(err)
		}
		left, err := s.Unfetched(ctx, crashKey, UnfetchedOptions{Limit: n})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if bodies < last || bodies != indexed || bodies+len(left) != n {
			t.Fatalf("kill %d: %d bodies (%d committed before), %d indexed, %d left of %d", k, bodies, last, indexed, len(left), n)
		}
		total = bodies
		if done {
			if bodies != n {
				t.Fatalf("the fetcher ended with %d of %d bodies", bodies, n)
			}
			return
		}
	}
}
