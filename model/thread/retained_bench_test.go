package thread

import (
	"runtime"
	"testing"
)

// BenchmarkRetained100k: the heap a Threader keeps for 100,000 messages,
// per message, beside the least any threading over ids keeps (one map
// from each Message-ID, the baseline). The TUI keeps one Threader of
// every stored row: its largest share of memory with many accounts.
func BenchmarkRetained100k(b *testing.B) {
	msgs := corpus(benchSize())
	per := func(f func() any) float64 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		kept := f()
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(kept)
		return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(msgs))
	}
	var th, base float64
	for b.Loop() {
		base = per(func() any {
			m := map[string]int32{}
			for i := range msgs {
				m[msgs[i].MessageID] = int32(i)
			}
			return m
		})
		th = per(func() any { return build(Options{}, msgs) })
	}
	b.ReportMetric(th, "B/msg")
	b.ReportMetric(base, "baseline-B/msg")
}
