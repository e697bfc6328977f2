package details

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screen/screentest"
)

// now is the fixed clock the golden was drawn at.
var now = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

// withStderr is an account whose provider left stderr behind.
type withStderr struct {
	*screentest.Account
	stderr string
}

func (a withStderr) Stderr() string { return a.stderr }

// A cooling-down account's details: its state and the next probe, the
// last error wrapped whole with its class, the counts, and the provider's
// stderr tail. The golden is the whole 80x24 frame as teatest drew it
// (moved here byte for byte); the details draw its header line and its
// body (lines 2 to 22), which are compared. The bar above and the status
// and help lines below are the root's, checked by its own goldens.
func TestAccountDetails(t *testing.T) {
	const width, height = 80, 24
	yahoo := withStderr{Account: &screentest.Account{Label: "Yahoo"},
		stderr: "--- unibox: provider start #3 at 13:58:01 ---\nlevel=WARN msg=\"tool failed\" tool=check_account class=unavailable\n"}
	h := accounts.Health{Name: "Yahoo", State: accounts.StateCoolingDown, ErrorClass: "none", OK: true,
		CooldownUntil: now.Add(17 * time.Second), Since: now.Add(-3 * time.Second),
		LastError: "check_account: unavailable: dial tcp 127.0.0.1:993: connect: connection refused", LastClass: "unavailable",
		Attempt: 4, Connects: 2, Dials: 3, Generation: 2}
	e := screentest.Env(t)
	e.Opts.Now = func() time.Time { return now }
	d := New(e, 0, func() Pane { return Pane{Account: yahoo, Health: h} }, "")

	body := d.View(width, height-4)
	for _, want := range []string{"Error class: unavailable", "connection refused", "Connects:    2", "tool=check_account"} {
		if !strings.Contains(body, want) {
			t.Fatalf("details miss %q:\n%s", want, body)
		}
	}
	raw, err := os.ReadFile(filepath.Join("testdata", t.Name()+".golden"))
	if err != nil {
		t.Fatal(err)
	}
	frame := strings.Split(string(raw), "\n")
	if len(frame) != height {
		t.Fatalf("the golden has %d lines, want %d", len(frame), height)
	}
	header := e.Styles.Header.Render(textsafe.Fit(textsafe.Line(d.Header()), width))
	if header != frame[1] {
		t.Errorf("header:\n%q\nwant:\n%q", header, frame[1])
	}
	if want := strings.Join(frame[2:height-2], "\n"); body != want {
		t.Errorf("body:\n%s\nwant:\n%s", body, want)
	}
}

// r asks the root for the account's refresh and stays open; esc (or i
// again) ends the details.
func TestDetailsKeys(t *testing.T) {
	e := screentest.Env(t)
	e.Opts.Now = func() time.Time { return now }
	var s screen.Screen = New(e, 3, func() Pane { return Pane{Account: &screentest.Account{Label: "Work"}} }, "")
	s, said := screentest.Step(s, screentest.Typed("r"))
	if r, ok := screentest.Only[RefreshMsg](said); s == nil || !ok || r.Account != 3 {
		t.Fatalf("r: screen %v, told %+v; want a refresh of account 3", s, said)
	}
	for _, k := range []tea.KeyMsg{{Type: tea.KeyEsc}, screentest.Typed("i")} {
		if next, _ := screentest.Step(s, k); next != nil {
			t.Fatalf("%s left the details open", k)
		}
	}
}
