package serveimap

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// BenchmarkHeapAtRest: the heap an account keeps in the server once its
// first sync is over (2,000 envelopes in pages of 200, as the app asks
// for them), its INBOX watched, and the server at rest: what a child
// holds for good beside the runtime's own. The note quotes live-KiB.
// With UNIBOX_HEAP_PROFILE=FILE it writes the live heap there (go tool
// pprof -sample_index=inuse_space).
func BenchmarkHeapAtRest(b *testing.B) {
	if os.Getenv("UNIBOX_HEAP_PROFILE") != "" {
		runtime.MemProfileRate = 1 // every allocation, for the profile
	}
	n := 2000
	if testing.Short() {
		n = 200
	}
	mem := imaptest.NewMem(b, memimap.Options{})
	user, pass := mem.NewUser(b)
	seedN(b, mem, user, n)
	var live float64
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		cs, done := atRest(b, mem, user, pass)
		runtime.GC()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		live = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / 1024
		if path := os.Getenv("UNIBOX_HEAP_PROFILE"); path != "" {
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		runtime.KeepAlive(cs)
		done()
	}
	b.ReportMetric(live, "live-KiB")
}

// atRest brings one account of a new server to rest: added, synced
// whole, watched.
func atRest(b *testing.B, mem *imaptest.Mem, user, pass string) (*mcp.ClientSession, func()) {
	s := New(Options{RestAfter: 50 * time.Millisecond})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	pushed := make(chan struct{}, 16)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case pushed <- struct{}{}:
			default:
			}
		},
	}).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	mustOK(b, "add_account", call(b, cs, "add_account", accountIn(mem, user, pass), nil))
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: imapwire.PushURI("work", "INBOX")}); err != nil {
		b.Fatal(err)
	}
	in := imapwire.SyncIn{Account: "work", Limit: 200}
	for {
		var out imapwire.SyncOut
		mustOK(b, "sync_folder", call(b, cs, "sync_folder", in, &out))
		in.UIDValidity, in.Held = out.UIDValidity, in.Held+uint32(len(out.New))
		if !out.More {
			in.UIDNext, in.HighestModSeq = out.UIDNext, out.HighestModSeq
			break
		}
		in.BeforeUID = minUID(out.New)
	}
	select {
	case <-pushed:
	case <-time.After(10 * time.Second):
		b.Fatal("never watched")
	}
	time.Sleep(200 * time.Millisecond) // past RestAfter: the server has rested
	return cs, func() {
		cs.Close()
		ss.Wait()
		s.Close()
	}
}

func minUID(ms []imapwire.Message) uint32 {
	m := ^uint32(0)
	for _, x := range ms {
		m = min(m, x.UID)
	}
	return m
}
