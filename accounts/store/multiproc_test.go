package store

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/model"
)

// Environment of the worker processes.
const (
	envPath   = "UNIBOX_STORE_PATH"
	envWorker = "UNIBOX_STORE_WORKER"
	envIters  = "UNIBOX_STORE_ITERS"
	envGen    = "UNIBOX_STORE_GEN"
	envPage   = "UNIBOX_STORE_PAGE"
)

func envInt(name string) (int, error) {
	n, err := strconv.Atoi(os.Getenv(name))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return n, nil
}

// ---- Several processes writing one file at once ----

// sharedKey is the account every worker lists and triages; ownKey(w) is
// written by worker w only.
var sharedKey = Key{Name: "Shared", Host: "imap.example.org", User: "everyone"}

func ownKey(w int) Key {
	return Key{Name: fmt.Sprintf("W%d", w), Host: "imap.example.org", User: fmt.Sprintf("user%d", w)}
}

// workerListing is the listing worker w saves for k at iteration i: a
// whole INBOX (More false) whose uids, flags, subjects and UIDVALIDITY
// move with w and i, so consecutive listings drop, insert, update and,
// every few iterations, refill the folder.
func workerListing(k Key, w, i int) Listing {
	const n = 12
	uv := uint32(1 + (i/5)%2)
	base := uint32(1 + (w*13+i*5)%40)
	l := Listing{Folder: "INBOX", UIDValidity: uv, UIDNext: base + 2*n, Total: n, Inbox: true,
		At: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)}
	for j := range n {
		uid := base + uint32(n-1-j)*2 // newest first
		l.Messages = append(l.Messages, model.Message{
			ID:        model.MessageID{Account: k.Name, Folder: "INBOX", UIDValidity: uv, UID: uid},
			MessageID: fmt.Sprintf("w%d.i%d.u%d@example.org", w, i, uid),
			From:      model.Address{Name: fmt.Sprintf("Sender %d", j), Address: fmt.Sprintf("s%d@example.org", j)},
			To:        []model.Address{{Name: "Me", Address: "me@example.org"}},
			Subject:   fmt.Sprintf("worker %d, iteration %d, uid %d", w, i, uid),
			Date:      time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(uid) * time.Minute),
			Seen:      (i+j)%2 == 0,
			Flagged:   j%3 == 0,
			Size:      uint32(1000 + 10*j + i),
		})
	}
	return l
}

// workerOp is the triage action of iteration i: each kind in turn.
func workerOp(i int) model.Op {
	return []model.Op{
		{Action: model.ActSetSeen, Value: true},
		{Action: model.ActSetFlagged, Value: true},
		{Action: model.ActArchive},
		{Action: model.ActMove, To: "Done"},
		{Action: model.ActTrash},
		{Action: model.ActSetSeen, Value: false},
	}[i%6]
}

// sameSnapshot reports how snap differs from what saving l (alone) leaves.
func sameSnapshot(snap Snapshot, l Listing) error {
	if snap.UIDValidity != l.UIDValidity || snap.Total != l.Total || snap.More || len(snap.Messages) != len(l.Messages) {
		return fmt.Errorf("uidvalidity %d total %d more %v with %d rows, want %d, %d, false, %d",
			snap.UIDValidity, snap.Total, snap.More, len(snap.Messages), l.UIDValidity, l.Total, len(l.Messages))
	}
	for i, g := range snap.Messages {
		w := l.Messages[i]
		if !g.Date.Equal(w.Date) {
			return fmt.Errorf("row %d: date %v, want %v", i, g.Date, w.Date)
		}
		g.Date, w.Date = time.Time{}, time.Time{}
		// A row's thread is another writer's business too (a message of
		// the shared account with one of these ids merges threads); the
		// thread tests check it.
		g.ThreadID, w.ThreadID = "", ""
		if !reflect.DeepEqual(g, w) {
			return fmt.Errorf("row %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	return nil
}

// runWorker is one writer: iters rounds of listing its own account and the
// shared one, then triaging both (Apply, then Revert as on a refusal),
// checking its own account reads back exactly; it ends by listing both
// once more (iteration iters), so each account's last write is a listing.
func runWorker(s *Store, w, iters int) error {
	own := ownKey(w)
	for i := 0; i <= iters; i++ {
		mine := workerListing(own, w, i)
		if err := s.Save(ctx, own, mine); err != nil {
			return fmt.Errorf("iteration %d: save: %w", i, err)
		}
		if err := s.Save(ctx, sharedKey, workerListing(sharedKey, w, i)); err != nil {
			return fmt.Errorf("iteration %d: save shared: %w", i, err)
		}
		if i == iters {
			return nil
		}
		op := workerOp(i)
		prior, err := s.Apply(ctx, own, op, mine.Messages[:3])
		if err != nil {
			return fmt.Errorf("iteration %d: apply %v: %w", i, op.Action, err)
		}
		if len(prior) != 3 {
			return fmt.Errorf("iteration %d: apply %v found %d of its 3 rows", i, op.Action, len(prior))
		}
		applied, err := s.Newest(ctx, own, "", 100)
		if err != nil {
			return fmt.Errorf("iteration %d: newest: %w", i, err)
		}
		if want := len(mine.Messages) - 3*btoi(op.Removes()); len(applied.Messages) != want {
			return fmt.Errorf("iteration %d: %d rows after %v, want %d", i, len(applied.Messages), op.Action, want)
		}
		if err := s.Revert(ctx, own, prior); err != nil {
			return fmt.Errorf("iteration %d: revert: %w", i, err)
		}
		back, err := s.Newest(ctx, own, "", 100)
		if err != nil {
			return fmt.Errorf("iteration %d: newest: %w", i, err)
		}
		if err := sameSnapshot(back, mine); err != nil {
			return fmt.Errorf("iteration %d: after revert: %w", i, err)
		}
		// The shared account is written by everyone: no expectation on
		// its contents here, only that nothing fails.
		snap, err := s.Newest(ctx, sharedKey, "", 5)
		if err != nil {
			return fmt.Errorf("iteration %d: newest shared: %w", i, err)
		}
		shared, err := s.Apply(ctx, sharedKey, op, snap.Messages)
		if err != nil {
			return fmt.Errorf("iteration %d: apply shared: %w", i, err)
		}
		if err := s.Revert(ctx, sharedKey, shared); err != nil {
			return fmt.Errorf("iteration %d: revert shared: %w", i, err)
		}
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writerChild is a worker process: it says "ready", opens the store only
// when the parent says "go" (so every process opens, and migrates, a new
// file at the same moment), then works.
func writerChild() error {
	w, err := envInt(envWorker)
	if err != nil {
		return err
	}
	iters, err := envInt(envIters)
	if err != nil {
		return err
	}
	fmt.Println("ready")
	var goLine string
	if _, err := fmt.Scanln(&goLine); err != nil || goLine != "go" {
		return fmt.Errorf("waiting for go: %q %v", goLine, err)
	}
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		return err
	}
	defer s.Close()
	if s.Warning != "" {
		return fmt.Errorf("open warned: %s", s.Warning)
	}
	if err := runWorker(s, w, iters); err != nil {
		return err
	}
	return s.Close()
}

// Two other processes and this one (two goroutines on one Store) list and
// triage the same file at once, starting on a new file: no call fails
// (no "database is locked": writers wait for the lock), the file is
// whole, and each account holds the last listing saved for it.
func TestProcessesShareTheFile(t *testing.T) {
	acrossProcesses(t)
	iters := 200
	if raceEnabled || testing.Short() {
		iters = 10 // each Save threads its rows: 20 took 14-17 s under -race
	}
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	children := []*child{}
	for w := 1; w <= 2; w++ {
		c := startChild(t, "writer", envPath+"="+path, fmt.Sprintf("%s=%d", envWorker, w), fmt.Sprintf("%s=%d", envIters, iters))
		if l, ok := c.line(); !ok || l != "ready" {
			t.Fatalf("worker %d did not start: %q: %s", w, l, c.failure(c.wait()))
		}
		children = append(children, c)
	}
	for _, c := range children {
		if _, err := fmt.Fprintln(c.stdin, "go"); err != nil {
			t.Fatal(err)
		}
	}
	// This process opens the new file along with the children.
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Warning != "" {
		t.Fatalf("open warned: %s", s.Warning)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, w := range []int{0, 3} { // two goroutines on the one Store
		wg.Go(func() {
			if err := runWorker(s, w, iters); err != nil {
				errs <- fmt.Errorf("worker %d (this process): %w", w, err)
			}
		})
	}
	for w, c := range children {
		if err := c.wait(); err != nil {
			t.Errorf("worker %d: %s", w+1, c.failure(err))
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
	if t.Failed() {
		return
	}

	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.Warning != "" {
		t.Fatalf("reopen warned: %s", s2.Warning)
	}
	integrityOK(t, s2)
	for _, w := range []int{0, 1, 2, 3} {
		snap, err := s2.Newest(ctx, ownKey(w), "", 100)
		if err != nil {
			t.Fatalf("worker %d's account: %v", w, err)
		}
		if err := sameSnapshot(snap, workerListing(ownKey(w), w, iters)); err != nil {
			t.Errorf("worker %d's account is not its last listing: %v", w, err)
		}
	}
	// The shared account's last write was some worker's last listing.
	snap, err := s2.Newest(ctx, sharedKey, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	var lasts []string
	for _, w := range []int{0, 1, 2, 3} {
		err := sameSnapshot(snap, workerListing(sharedKey, w, iters))
		if err == nil {
			return
		}
		lasts = append(lasts, fmt.Sprintf("worker %d: %v", w, err))
	}
	t.Errorf("the shared account is no worker's last listing:\n%s", strings.Join(lasts, "\n"))
}

// integrityOK fails t unless SQLite's full integrity check passes.
func integrityOK(t testing.TB, s *Store) {
	t.Helper()
	rows, err := s.db.Query("PRAGMA integrity_check")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		problems = append(problems, p)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0] != "ok" {
		t.Fatalf("integrity_check: %q", problems)
	}
}

// ---- A process killed while it writes ----

// openerChild opens, writes to and closes the store at each path the
// parent sends on stdin, answering "ok" each time, until stdin ends.
func openerChild() error {
	w, err := envInt(envWorker)
	if err != nil {
		return err
	}
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if err := openAndList(in.Text(), w); err != nil {
			return err
		}
		fmt.Println("ok")
	}
	return in.Err()
}

// openAndList is what a unibox process does first: open the store, list
// one account into it, read it back, close.
func openAndList(path string, w int) error {
	s, err := Open(path)
	if err != nil {
		return err
	}
	defer s.Close()
	if s.Warning != "" {
		return fmt.Errorf("open warned: %s", s.Warning)
	}
	l := workerListing(ownKey(w), w, 0)
	if err := s.Save(ctx, ownKey(w), l); err != nil {
		return err
	}
	snap, err := s.Newest(ctx, ownKey(w), "", 100)
	if err != nil {
		return err
	}
	if err := sameSnapshot(snap, l); err != nil {
		return err
	}
	return s.Close()
}

// Several processes starting at once on a store that does not exist yet
// (the first launch: a TUI and a cron `list` together) all open it, make
// it once between them, and write, with no "database is locked".
func TestProcessesOpenANewFileAtOnce(t *testing.T) {
	acrossProcesses(t)
	rounds, procs := 50, 4
	if raceEnabled || testing.Short() {
		rounds = 10
	}
	var children []*child
	for w := 1; w <= procs; w++ {
		c := startChild(t, "opener", fmt.Sprintf("%s=%d", envWorker, w))
		if l, ok := c.line(); !ok || l != "ready" {
			t.Fatalf("opener %d did not start: %q: %s", w, l, c.failure(c.wait()))
		}
		children = append(children, c)
	}
	dir := t.TempDir()
	for round := range rounds {
		path := filepath.Join(dir, fmt.Sprint(round), "unibox", "store.db")
		for _, c := range children {
			if _, err := fmt.Fprintln(c.stdin, path); err != nil {
				t.Fatal(err)
			}
		}
		if err := openAndList(path, 0); err != nil {
			t.Errorf("round %d: this process: %v", round, err)
		}
		for w, c := range children {
			if l, ok := c.line(); !ok || l != "ok" {
				t.Fatalf("round %d: opener %d: %q: %s", round, w+1, l, c.failure(c.wait()))
			}
		}
		if t.Failed() {
			return
		}
	}
	for w, c := range children {
		c.stdin.Close()
		if err := c.wait(); err != nil {
			t.Errorf("opener %d: %s", w+1, c.failure(err))
		}
	}
}
