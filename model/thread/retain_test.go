package thread

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The Threader lives as long as the app; ids cut from a huge header must
// not keep the header alive. 40 headers of 1.2 MB each, each naming one
// new id, leave a few kilobytes behind, not 48 MB.
func TestNoHeaderRetained(t *testing.T) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	th := New(Options{})
	for i := range 40 {
		header := "<u" + strconv.Itoa(i) + "@h> " + strings.Repeat("<x@h> ", 200_000)
		th.Add(in(uint32(i+1), "m"+strconv.Itoa(i)+"@h", "", strings.Fields(header)...))
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(th)
	if grown := int64(ms.HeapAlloc) - int64(before); grown > 16<<20 {
		t.Errorf("heap grew by %d MB after threading 40 big headers: the headers are retained", grown>>20)
	}
}
