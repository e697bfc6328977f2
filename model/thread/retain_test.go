package thread

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The Threader lives as long as the app; what it keeps of a huge header
// or subject must not be the whole of it. 40 headers (or subjects) of
// 1.2 MB each, each naming one new id (or subject), leave a few kilobytes
// behind, not 48 MB.
func TestNoHeaderRetained(t *testing.T) {
	t.Run("References", func(t *testing.T) {
		retained(t, Options{}, func(i int, big string) Message {
			header := "<u" + strconv.Itoa(i) + "@h> " + big
			return in(uint32(i+1), "m"+strconv.Itoa(i)+"@h", "", strings.Fields(header)...)
		})
	})
	t.Run("subject", func(t *testing.T) {
		retained(t, Options{BySubject: true}, func(i int, big string) Message {
			return withSubject(in(uint32(i+1), "m"+strconv.Itoa(i)+"@h", ""), strconv.Itoa(i)+big)
		})
	})
}

func retained(t *testing.T, opts Options, msg func(i int, big string) Message) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	th := New(opts)
	for i := range 40 {
		th.Add(msg(i, strings.Repeat("<x@h> ", 200_000)))
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(th)
	if grown := int64(ms.HeapAlloc) - int64(before); grown > 16<<20 {
		t.Errorf("heap grew by %d MB after threading 40 big headers: the headers are retained", grown>>20)
	}
}
