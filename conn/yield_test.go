package conn

import (
	"context"
	"testing"
	"time"
)

// waitFor polls cond until it holds, failing after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// A background call starts only while no other call is in progress: it
// waits behind a person's call that is under way, goes once that ends,
// and gives up when its caller does. A person's call never waits on a
// background one that is waiting.
func TestBackgroundCallYields(t *testing.T) {
	w := newWorld()
	a := newMemAdapter(t, w, nil)
	if _, err := a.Call(t.Context(), listReq()); err != nil {
		t.Fatal(err)
	}
	held, release := context.WithCancel(t.Context())
	heldDone := make(chan error, 1)
	go func() {
		_, err := a.Call(held, Request{Tool: "hang", Args: nameIn{Account: "work"}, Idempotent: true})
		heldDone <- err
	}()
	waitFor(t, "the person's call in flight", func() bool { return a.inflight.Load() == 1 })

	bg := listReq()
	bg.Background = true
	bgDone := make(chan error, 1)
	go func() {
		_, err := a.Call(t.Context(), bg)
		bgDone <- err
	}()
	waitFor(t, "the background call to wait", func() bool { return a.Yielding() == 1 })
	if n := w.count("list"); n != 1 {
		t.Fatalf("the background list reached the provider (%d lists) while a person's call was under way", n)
	}
	// Another call of the person's goes at once, past the waiting one.
	if _, err := a.Call(t.Context(), Request{Tool: "check", Args: nameIn{Account: "work"}, Idempotent: true}); err != nil {
		t.Fatal(err)
	}
	if n := w.count("list"); n != 1 {
		t.Fatalf("the background list went before the held call ended (%d lists)", n)
	}
	release()
	<-heldDone
	if err := <-bgDone; err != nil {
		t.Fatalf("the background call after the person's: %v", err)
	}
	if n := w.count("list"); n != 2 {
		t.Fatalf("%d lists, want the background one too", n)
	}

	// A background call whose caller gives up while it waits never runs.
	held, release = context.WithCancel(t.Context())
	go func() {
		_, err := a.Call(held, Request{Tool: "hang", Args: nameIn{Account: "work"}, Idempotent: true})
		heldDone <- err
	}()
	waitFor(t, "the person's call in flight", func() bool { return a.inflight.Load() == 1 })
	gone, giveUp := context.WithCancel(t.Context())
	go func() {
		_, err := a.Call(gone, bg)
		bgDone <- err
	}()
	waitFor(t, "the background call to wait", func() bool { return a.Yielding() == 1 })
	giveUp()
	if err := <-bgDone; err == nil {
		t.Fatal("a background call whose caller gave up ran")
	}
	release()
	<-heldDone
	if n := w.count("list"); n != 2 {
		t.Fatalf("%d lists: the abandoned background call reached the provider", n)
	}
}
