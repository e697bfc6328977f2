package teatest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts/send/drafting"
	"unibox/model/textsafe"
	"unibox/ui/tui"
)

// snapMsg asks screens for the screen as it is once every message sent
// before it has been handled.
type snapMsg struct{}

// screens is the TUI with a way to read its screen at a known point: the
// renderer's output holds only the lines that changed, so a screen
// scrolled a line cannot be read back from it whole.
type screens struct {
	tea.Model
	views chan string
}

func (s screens) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(snapMsg); ok {
		s.views <- s.Model.View() // on the program's goroutine, in order
		return s, nil
	}
	m, cmd := s.Model.Update(msg)
	s.Model = m
	return s, cmd
}

// runScreens is run with screens around the model.
func runScreens(t *testing.T, accts []tui.Account, w, h int, mod func(*tui.Options)) (*teatest.TestModel, func(keys ...string) string) {
	t.Helper()
	o := tui.Options{Accounts: accts, Now: func() time.Time { return now }, NoTick: true}
	mod(&o)
	m, err := tui.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s := screens{Model: m, views: make(chan string, 1)}
	tm := teatest.NewTestModel(t, s, teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() {
		_ = tm.Quit()
		m.Close()
	})
	// screen presses keys and returns the screen after them, ANSI-free.
	screen := func(keys ...string) string {
		t.Helper()
		for _, k := range keys {
			tm.Send(key(k))
		}
		tm.Send(snapMsg{})
		select {
		case v := <-s.views:
			return ansi.Strip(v)
		case <-time.After(10 * time.Second):
			t.Fatal("no screen after 10s")
			return ""
		}
	}
	return tm, screen
}

// hostileName is the display name: an address that is not the
// one the mail goes to, long enough to push that one off a line.
const hostileName = "bob@uharness.test (Bob, Finance) - Example Corp Accounts Payable"

// An agent's draft to 50 recipients (its cap), each under a display
// name that writes another address, reviewed on a 60x10 terminal: every
// address is on the screen whole at some point as j scrolls (one of them
// longer than a line, wrapped), every mark is there (none folded into
// "and N more"), "↓ more" stands at the bottom while anything is below
// and not at the end, pgdn reaches the end the same way, and the frame
// holds all along: the account bar first, the keys last, 10 lines no
// wider than 60 columns.
func TestReviewShowsEveryAddressWhole(t *testing.T) {
	const width, height = 60, 10
	w, box := lunchWriter(t)
	var to, cc, want []string
	for i := range drafting.MaxRecipients {
		addr := fmt.Sprintf("evil%02d@attacker.test", i)
		if i == 7 {
			addr = "evil07@billing-department-of-example-corp-accounts.attacker.test"
		}
		want = append(want, addr)
		if i%2 == 0 {
			to = append(to, fmt.Sprintf("%q <%s>", hostileName, addr))
		} else {
			cc = append(cc, fmt.Sprintf("%q <%s>", hostileName, addr))
		}
	}
	if _, err := drafting.NewWriter(box, 100).New(context.Background(), w, to, cc, "Invoice", "Please pay.", time.Second); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Editor: "false", SendDelay: time.Minute}
	tm, screen := runScreens(t, []tui.Account{w}, width, height, func(o *tui.Options) { o.Mailroom = room })
	waitFor(t, tm, "1 draft to review")
	tm.Send(key("D"))
	waitFor(t, tm, "agent draft")
	tm.Send(key("enter"))
	at := screen()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(at, "! To: new recipient") || !strings.Contains(at, "review · y send"); at = screen() {
		if time.Now().After(deadline) {
			t.Fatalf("the review with its marks did not come:\n%s", at)
		}
	}

	// j, a line at a time, to the end: the screen stops changing there.
	views := []string{at}
	for {
		next := screen("j")
		if next == views[len(views)-1] {
			break
		}
		if len(views) > 1000 {
			t.Fatal("j never reaches the end")
		}
		views = append(views, next)
	}
	checkScrolled(t, views, width, height)
	for _, a := range want {
		whole := false
		for _, v := range views {
			whole = whole || strings.Contains(joinBody(v), a)
		}
		if !whole {
			t.Errorf("%s was never on the screen whole", a)
		}
	}
	// The whole page, read back a line a time: every mark is on it, in
	// order, none folded into "and N more".
	page := stitch(t, views, height)
	var got []string
	for _, l := range page {
		if strings.HasPrefix(l, "From:") {
			break
		}
		if strings.HasPrefix(l, "! ") {
			got = append(got, "")
		}
		if len(got) > 0 { // a mark's lines joined; where a line broke is not on the screen
			got[len(got)-1] += strings.ReplaceAll(l, " ", "")
		}
	}
	var marks []string
	for _, field := range []string{"To", "Cc"} {
		for i, a := range want {
			if (i%2 == 0) == (field == "To") {
				marks = append(marks, "!"+field+":newrecipient:"+a, "!"+field+":thenameshowsanotheraddress:bob@uharness.test,butthisgoesto"+a)
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(marks, "\n") {
		t.Errorf("the marks, spaces left out:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(marks, "\n"))
	}

	// pgdn from the top reaches the same end.
	pages := []string{screen("g")}
	for pages[len(pages)-1] != views[len(views)-1] {
		if len(pages) > 200 {
			t.Fatalf("pgdn never reaches the end; last:\n%s", pages[len(pages)-1])
		}
		pages = append(pages, screen("pgdown"))
	}
	if len(pages) < 3 {
		t.Fatalf("pgdn took %d screens to the end", len(pages))
	}
	checkScrolled(t, pages, width, height)
}

// checkScrolled checks screens scrolled from the top to the end: the
// frame holds on each, and "↓ more" is on every one but the last.
func checkScrolled(t *testing.T, views []string, width, height int) {
	t.Helper()
	for i, v := range views {
		lines := strings.Split(v, "\n")
		if len(lines) != height || !strings.Contains(lines[0], "Work") || !strings.HasPrefix(lines[1], "review · y send") ||
			!strings.HasPrefix(lines[height-1], "y send") {
			t.Fatalf("screen %d: the frame broke:\n%s", i, v)
		}
		for _, l := range lines {
			if textsafe.Width(l) > width {
				t.Fatalf("screen %d: a line wider than %d:\n%s", i, width, v)
			}
		}
		more := strings.HasPrefix(lines[height-3], "↓ more")
		if last := i == len(views)-1; more == last {
			t.Fatalf("screen %d of %d: ↓ more shown %v:\n%s", i+1, len(views), more, v)
		}
	}
}

// stitch is the review's whole page from screens scrolled a line at a
// time (each one line below the last, as checked): the first screen's
// lines, then each next one's last.
func stitch(t *testing.T, views []string, height int) []string {
	t.Helper()
	window := func(v string) []string { return strings.Split(v, "\n")[2 : height-3] }
	page := window(views[0])
	for i, v := range views[1:] {
		w, prev := window(v), window(views[i])
		if strings.Join(w[:len(w)-1], "\n") != strings.Join(prev[1:], "\n") {
			t.Fatalf("j moved the page by more than a line:\n%s\nthen:\n%s", views[i], v)
		}
		page = append(page, w[len(w)-1])
	}
	for i, l := range page {
		page[i] = strings.TrimRight(l, " ")
	}
	return page
}

// joinBody is the review's lines of a screen (under the bar and header,
// above the status line and keys) without their labels (9 columns) and
// trailing spaces, joined: an address wrapped over lines reads whole.
func joinBody(v string) string {
	lines := strings.Split(v, "\n")
	var b strings.Builder
	for _, l := range lines[2 : len(lines)-2] {
		r := []rune(l)
		if len(r) > 9 {
			r = r[9:]
		}
		b.WriteString(strings.TrimRight(string(r), " "))
	}
	return b.String()
}
