package conn

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call on a cooling-down adapter: must fail without I/O and without an
// allocation (goal ≤ 250 ns; issue 36, held by
// TestCallWhileCoolingDownAllocatesNothing).
func BenchmarkCallCoolingDown(b *testing.B) {
	w := newWorld()
	w.dialErr = errors.New("connection refused")
	a := newMemAdapter(b, w, func(o *Options) { o.Dials.BackoffBase = time.Hour; o.Dials.BackoffCap = time.Hour })
	_ = a.EnsureConnected(context.Background())
	ctx := context.Background()
	req := listReq()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Call(ctx, req); !errors.Is(err, ErrCoolingDown) {
			b.Fatal(err)
		}
	}
}

// SIGKILL of an idle real child until the adapter says disconnected
// (goal ≤ 100 ms).
func BenchmarkChildKillToDisconnected(b *testing.B) {
	c := newChildWorld(b)
	a := c.adapter(func(o *Options) { o.Dials.StableAfter = time.Nanosecond })
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if err := a.EnsureConnected(context.Background()); err != nil {
			b.Fatal(err)
		}
		pid := c.pids()[i]
		ch, cancel := a.Subscribe()
		<-ch
		b.StartTimer()
		start := time.Now()
		_ = syscall.Kill(pid, syscall.SIGKILL)
		for st := range ch {
			if st.State == StateDisconnected {
				break
			}
		}
		total += time.Since(start)
		cancel()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/kill")
}

// The adapter's overhead on a call: compare the two sub-benchmarks.
func BenchmarkCallOverhead(b *testing.B) {
	b.Run("bare", func(b *testing.B) {
		w := newWorld()
		t, _ := w.dial(context.Background())
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(), t, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add_account", Arguments: nameIn{}}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list", Arguments: nameIn{Account: "work"}})
			if err != nil || res.IsError {
				b.Fatal(err)
			}
		}
	})
	b.Run("adapter", func(b *testing.B) {
		a := newMemAdapter(b, newWorld(), nil)
		req := listReq()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Call(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
