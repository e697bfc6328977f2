package folder

import (
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	"unibox/ui/tui/screen"
)

// The folder's loading is the folder view's own, run on the view alone
// with the accounts it reads: nothing when no folder is on screen, one
// request at a time (a second while one runs is one more after it), and
// the badge names the folder beside its account only.
func TestFolderViewLoadsAlone(t *testing.T) {
	accts := []screen.Account{&screentest.Account{Label: "Work"}, &screentest.Account{Label: "Home"}}
	for _, tc := range []struct {
		name           string
		v              View
		cmd, again     bool
		req            uint64
		badge0, badge1 string
	}{
		{"no folder", View{}, false, false, 0, "", ""},
		{"a folder", View{On: true, Account: 1, Name: "Lists"}, true, false, 1, "", "Lists"},
		{"while one runs", View{On: true, Account: 1, Name: "Lists", Loading: true, Req: 7}, false, true, 7, "", "Lists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &screen.Env{Opts: screen.Options{Accounts: accts, PageSize: 50, CallTimeout: time.Second}}
			v := tc.v
			cmd := v.Load(e)
			if (cmd != nil) != tc.cmd || v.Again != tc.again || v.Req != tc.req {
				t.Errorf("cmd %v, again %v, req %d; want %v, %v, %d", cmd != nil, v.Again, v.Req, tc.cmd, tc.again, tc.req)
			}
			if v.At(0) != tc.badge0 || v.At(1) != tc.badge1 {
				t.Errorf("badges %q %q, want %q %q", v.At(0), v.At(1), tc.badge0, tc.badge1)
			}
		})
	}
}
