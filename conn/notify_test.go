package conn

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A provider's push reaches OnNotify; after the child dies and a new one
// is connected, afterConnect has subscribed again and pushes go on.
func TestPushReachesOnNotifyAcrossReconnects(t *testing.T) {
	w := newWorld()
	pushed := make(chan string, 8)
	a := newMemAdapter(t, w, func(o *Options) {
		o.AfterConnect = func(ctx context.Context, c Caller) error {
			if err := provision(ctx, c); err != nil {
				return err
			}
			return c.Subscribe(ctx, "test://work")
		}
		o.OnNotify = func(uri string) { pushed <- uri }
	})
	// Subscribe may return before the server has registered it (the
	// 2026-07-28 protocol's listen stream), so poke until a push comes.
	poke := func(what string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			if _, err := a.Call(t.Context(), Request{Tool: "poke", Args: nameIn{Account: "work"}}); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			select {
			case uri := <-pushed:
				if uri != "test://work" {
					t.Fatalf("%s: pushed %q", what, uri)
				}
				return
			case <-time.After(20 * time.Millisecond):
			case <-deadline:
				t.Fatalf("%s: no push", what)
			}
		}
	}
	poke("first session")
	w.dieOn("list", 1)
	if _, err := a.Call(t.Context(), listReq()); err != nil { // dies, reconnects, retried once
		t.Fatal(err)
	}
	poke("second session")
	if n := w.count("subscribe"); n != 2 {
		t.Fatalf("subscribed %d times, want once per session", n)
	}
}

// Only the live session (or the one being connected) is heard: a push
// from a superseded or retired session is dropped, like its end.
func TestPushFromASupersededSessionIsDropped(t *testing.T) {
	var got []string
	a := New(Options{Account: "work", OnNotify: func(uri string) { got = append(got, uri) }})
	defer a.Close()
	defer func() { // the sessions are not real: nothing for Close to end
		a.mu.Lock()
		a.gens, a.gen = map[uint64]*generation{}, nil
		a.mu.Unlock()
	}()
	old, live, next := &mcp.ClientSession{}, &mcp.ClientSession{}, &mcp.ClientSession{}
	a.mu.Lock()
	a.gens[1] = &generation{id: 1, cs: old, retired: true}
	a.gens[2] = &generation{id: 2, cs: live}
	a.gens[3] = &generation{id: 3, cs: next} // connecting: not yet a.gen
	a.gen = a.gens[2]
	a.mu.Unlock()
	a.notified(old, "old")
	a.notified(live, "live")
	a.notified(next, "next")
	a.notified(&mcp.ClientSession{}, "stranger")
	if want := []string{"live", "next"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("heard %v, want %v", got, want)
	}
}
