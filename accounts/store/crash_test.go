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

var crashKey = Key{Name: "Crash", Host: "imap.example.org", User: "ann"}

// crashListing is generation g of a page of n messages: generations
// alternate between two overlapping uid ranges (so each save drops half
// the rows, inserts half and rewrites the rest), and every row says its
// generation.
func crashListing(g, n int) Listing {
	first := uint32(1 + (g%2)*n/2)
	l := Listing{Folder: "INBOX", UIDValidity: 7, UIDNext: first + uint32(n), Total: uint32(n), Inbox: true,
		At: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(g) * time.Minute)}
	for j := range n {
		uid := first + uint32(n-1-j)
		l.Messages = append(l.Messages, model.Message{
			ID:        model.MessageID{Account: crashKey.Name, Folder: "INBOX", UIDValidity: 7, UID: uid},
			MessageID: fmt.Sprintf("%d.%d@mail.example.org", g, uid),
			From:      model.Address{Name: fmt.Sprintf("Correspondent %d", uid%97), Address: fmt.Sprintf("c%d@example.com", uid%97)},
			To:        []model.Address{{Name: "Ann", Address: "ann@example.org"}, {Address: fmt.Sprintf("list%d@example.org", uid%5)}},
			Subject:   fmt.Sprintf("generation %d: re: the quarterly report, draft %d", g, uid),
			Date:      time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(uid) * time.Hour),
			Seen:      (int(uid)+g)%3 != 0,
			Flagged:   (int(uid)+g)%11 == 0,
			Answered:  g%2 == 0,
			Size:      uint32(2000 + uid%4000 + uint32(g)),
		})
	}
	return l
}

// crasherChild saves generation after generation of a big listing,
// printing each generation once its Save has returned (committed), until
// it is killed (or, as a bound, a thousand generations on).
func crasherChild() error {
	g, err := envInt(envGen)
	if err != nil {
		return err
	}
	n, err := envInt(envPage)
	if err != nil {
		return err
	}
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		return err
	}
	defer s.Close()
	if s.Warning != "" {
		return fmt.Errorf("open warned: %s", s.Warning)
	}
	for end := g + 1000; g < end; g++ {
		if err := s.Save(ctx, crashKey, crashListing(g, n)); err != nil {
			return err
		}
		if _, err := fmt.Println(g); err != nil {
			return err // the parent is gone
		}
	}
	return nil
}

// A process killed (SIGKILL) in the middle of saving loses at most the
// listing it was saving: every time, the file opens without being set
// aside, passes the integrity check, and holds exactly one whole listing,
// the last committed one or a later one, never a mix.
func TestKilledWriterLeavesAWholeListing(t *testing.T) {
	acrossProcesses(t)
	kills, page := 20, 2000
	if raceEnabled || testing.Short() {
		// Each Save threads its rows too: 300 took a minute under the
		// race detector. Ten kills still land at ten different tenths
		// of a Save ((k*7)%kills is a permutation).
		kills, page = 10, 100
	}
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	next := 0 // the next generation to write
	var cycle time.Duration
	for k := range kills {
		c := startChild(t, "crasher", envPath+"="+path, fmt.Sprintf("%s=%d", envGen, next), fmt.Sprintf("%s=%d", envPage, page))
		want := 1 + k%4 // commits to see before the kill
		last := -1
		var at time.Time
		for range want {
			l, ok := c.line()
			if !ok {
				t.Fatalf("kill %d: the writer stopped: %s", k, c.failure(c.wait()))
			}
			g, err := strconv.Atoi(l)
			if err != nil || g != max(last+1, next) {
				t.Fatalf("kill %d: the writer said %q after %d", k, l, last)
			}
			if last >= 0 {
				cycle = time.Since(at) // how long one Save takes here
			}
			last, at = g, time.Now()
		}
		// Where in the next Save the kill lands: a different fraction of
		// it each time, from its start through its commit (and, now and
		// then, a checkpoint). Not synchronisation: whatever the moment,
		// the store must come out whole; killing right after a commit
		// line only would land before the next transaction has begun.
		time.Sleep(cycle * time.Duration((k*7)%kills) / time.Duration(kills))
		if err := c.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		c.wait()

		s, err := Open(path)
		if err != nil {
			t.Fatalf("kill %d: %v", k, err)
		}
		if s.Warning != "" {
			s.Close()
			t.Fatalf("kill %d: the store was set aside: %s", k, s.Warning)
		}
		integrityOK(t, s)
		snap, err := s.Newest(ctx, crashKey, "", 2*page)
		s.Close()
		if err != nil {
			t.Fatalf("kill %d: %v", k, err)
		}
		if len(snap.Messages) == 0 {
			t.Fatalf("kill %d: no rows", k)
		}
		var g int
		if _, err := fmt.Sscanf(snap.Messages[0].Subject, "generation %d:", &g); err != nil {
			t.Fatalf("kill %d: newest row %q: %v", k, snap.Messages[0].Subject, err)
		}
		if g < last {
			t.Fatalf("kill %d: the store holds generation %d, but %d was committed", k, g, last)
		}
		if err := sameSnapshot(snap, crashListing(g, page)); err != nil {
			t.Fatalf("kill %d: the store is not generation %d whole: %v", k, g, err)
		}
		next = g + 1
	}
	aside, _ := filepath.Glob(path + ".broken-*")
	if len(aside) > 0 {
		t.Fatalf("set aside: %v", aside)
	}
}

// ---- Processes opening a new file at the same moment ----
