package model

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

func tenK(acct string, n int) []Message {
	out := make([]Message, n)
	for i := range out {
		out[i] = Message{ID: MessageID{acct, "INBOX", 7, uint32(n - i)}, Subject: fmt.Sprintf("Subject number %d about a thing", i),
			From: Address{"Sender Name", "sender@example.org"}, Date: t0.Add(-time.Duration(i) * 7 * time.Minute), Seen: i%3 == 0}
	}
	return out
}

// BenchmarkInboxMerge10k: three accounts, 10,000 rows, replaced and merged.
func BenchmarkInboxMerge10k(b *testing.B) {
	pages := map[string][]Message{"Work": tenK("Work", 3334), "Personal": tenK("Personal", 3333), "Yahoo": tenK("Yahoo", 3333)}
	b.ReportAllocs()
	for b.Loop() {
		in := NewInbox([]string{"Work", "Personal", "Yahoo"})
		for name, p := range pages {
			in.Replace(name, p, false)
		}
		if len(in.Rows()) != 10000 {
			b.Fatal(len(in.Rows()))
		}
	}
}

// BenchmarkInboxMemory10k reports the heap an inbox of 10,000 rows holds.
func BenchmarkInboxMemory10k(b *testing.B) {
	pages := map[string][]Message{"Work": tenK("Work", 3334), "Personal": tenK("Personal", 3333), "Yahoo": tenK("Yahoo", 3333)}
	var held uint64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		in := NewInbox([]string{"Work", "Personal", "Yahoo"})
		for name, p := range pages {
			in.Replace(name, p, false)
		}
		in.Rows()
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(in)
	}
	b.ReportMetric(float64(held)/10000, "B/row")
}
