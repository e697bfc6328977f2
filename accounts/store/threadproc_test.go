package store

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"unibox/model"
	"unibox/model/thread"
)

// threaderChild adds its half of chain(60) to the store at envPath, one
// sync page a message each time the parent says "go", answering "ok":
// worker 0 the odd messages newest first, worker 1 the even ones oldest
// first.
func threaderChild() error {
	w, err := envInt(envWorker)
	if err != nil {
		return err
	}
	s, err := Open(os.Getenv(envPath))
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	all := chain(60)
	for i := range 30 {
		if !in.Scan() {
			return fmt.Errorf("no go: %v", in.Err())
		}
		m := all[2*i]
		if w == 0 {
			m = all[59-2*i]
		}
		if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 1, UIDNext: 61, Total: 60, New: []model.Message{m}, Done: true}); err != nil {
			return err
		}
		fmt.Println("ok")
	}
	return nil
}

// Two real processes adding parts of one conversation in opposite orders,
// taking turns (each write then follows one of the other's), end with
// every row in the thread a store built from scratch gives it.
func TestThreadTwoProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unibox", "store.db")
	s, err := Open(path) // the file exists before the children race to it
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var children []*child
	for w := range 2 {
		c := startChild(t, "threader", envPath+"="+path, fmt.Sprintf("%s=%d", envWorker, w))
		if l, ok := c.line(); !ok || l != "ready" {
			t.Fatalf("worker %d: %s", w, c.failure(c.wait()))
		}
		children = append(children, c)
	}
	for i := range 30 {
		for w, c := range children {
			fmt.Fprintln(c.stdin, "go")
			if l, ok := c.line(); !ok || l != "ok" {
				t.Fatalf("worker %d, message %d: %s", w, i, c.failure(c.wait()))
			}
		}
	}
	for w, c := range children {
		c.stdin.Close()
		if err := c.wait(); err != nil {
			t.Fatalf("worker %d: %s", w, c.failure(err))
		}
	}
	ids := threadIDs(t, s, work, "INBOX")
	if len(ids) != 60 {
		t.Fatalf("%d rows, want 60", len(ids))
	}
	for id, tid := range ids {
		if tid != thread.ID("c0@x") {
			t.Fatalf("%s is in thread %s, want %s", id, tid, thread.ID("c0@x"))
		}
	}
}
