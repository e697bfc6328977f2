package teatest

import (
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"unibox/accounts/store"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/tui"
)

// The background body fetch begins after the first screen (issue 39
// cares about that screen's time): FirstScreen runs once every account's
// first rows are drawn, not while a first listing is still at its
// server, and once only.
func TestFirstScreenBeginsTheBodyFetch(t *testing.T) {
	faults := &memimap.Faults{}
	srv := fillMem(t, memimap.Options{Faults: faults}, "m", 30, now)
	st, err := store.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	set := openMemStored(t, st, []string{"Work"}, []int{srv.Port()})
	defer set.Close()
	hold := faults.HoldNext("FETCH")
	var begun atomic.Int32
	drawn := make(chan struct{})
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) {
		o.FirstScreenWait = time.Hour // only the rows end the wait
		o.FirstScreen = func() {
			if begun.Add(1) == 1 {
				close(drawn)
			}
		}
	})
	<-hold.Held // the first listing is at the server
	if n := begun.Load(); n != 0 {
		t.Fatalf("the body fetch began (%d) before the first screen", n)
	}
	hold.Release(true)
	waitFor(t, tm, "m 029")
	select {
	case <-drawn:
	case <-time.After(30 * time.Second):
		t.Fatal("the body fetch did not begin after the first screen")
	}
	tm.Send(key("j"))
	tm.Send(key("k"))
	final(t, tm)
	if n := begun.Load(); n != 1 {
		t.Fatalf("FirstScreen ran %d times, want once", n)
	}
}
