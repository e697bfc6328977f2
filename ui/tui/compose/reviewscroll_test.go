package compose

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"unibox/accounts/send/drafting"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screen/screentest"
)

// hostileName is the display name: an address that is not the
// one the mail goes to, long enough to push that one off a line.
const hostileName = "bob@uharness.test (Bob, Finance) - Example Corp Accounts Payable"

// reviewing is the composer with the draft chosen in the drafts view
// on its review screen, marks worked out, at width x height (the body of
// the frame): the path enter in D takes, each command run in turn.
func reviewing(t *testing.T, e *screen.Env, drafts screen.Screen, width, height int) Composer {
	t.Helper()
	drafts, _ = screentest.Step(drafts, ReadOutboxCmd(e.Opts.Mailroom)())
	_, cmd := drafts.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter opened nothing")
	}
	c := New(e)
	c.Width, c.Height = width, height
	c = settle(t, c, cmd) // reopened, read back, its marks worked out
	if !c.Review {
		t.Fatal("the review screen is not up")
	}
	return c
}

// An agent's draft to 50 recipients (its cap), each under a display
// name that writes another address, reviewed in a body of 60x6 (a 60x10
// terminal): every address is on the screen whole at some point as j
// scrolls (one of them longer than a line, wrapped), every mark is there
// (none folded into "and N more"), "↓ more" stands at the bottom while
// anything is below and not at the end, pgdn reaches the end the same
// way, and the body holds all along: 6 lines no wider than 60 columns.
// (Moved from teatest: the frame around the body is the root's.)
func TestReviewShowsEveryAddressWhole(t *testing.T) {
	const width, height = 60, 6
	w := newWriter("Work")
	box, e := openRoom(t, w)
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
	c := reviewing(t, e, NewDrafts(e, []screen.Account{w}), width, height)
	if h := c.Header(); !strings.HasPrefix(h, "review · y send") {
		t.Fatalf("header %q", h)
	}
	drawn := func(keys ...tea.KeyMsg) string {
		for _, k := range keys {
			c, _ = c.Update(k)
		}
		return ansi.Strip(c.View(width, height))
	}
	at := drawn()
	if !strings.Contains(at, "! To: new recipient") {
		t.Fatalf("the review's marks are not on top:\n%s", at)
	}

	// j, a line at a time, to the end: the screen stops changing there.
	views := []string{at}
	for {
		next := drawn(screentest.Typed("j"))
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
	pages := []string{drawn(screentest.Typed("g"))}
	for pages[len(pages)-1] != views[len(views)-1] {
		if len(pages) > 200 {
			t.Fatalf("pgdn never reaches the end; last:\n%s", pages[len(pages)-1])
		}
		pages = append(pages, drawn(tea.KeyMsg{Type: tea.KeyPgDown}))
	}
	if len(pages) < 3 {
		t.Fatalf("pgdn took %d screens to the end", len(pages))
	}
	checkScrolled(t, pages, width, height)
}

// checkScrolled checks bodies scrolled from the top to the end: each
// holds its size, and "↓ more" is on every one but the last.
func checkScrolled(t *testing.T, views []string, width, height int) {
	t.Helper()
	for i, v := range views {
		lines := strings.Split(v, "\n")
		if len(lines) != height {
			t.Fatalf("screen %d: %d lines, want %d:\n%s", i, len(lines), height, v)
		}
		for _, l := range lines {
			if textsafe.Width(l) > width {
				t.Fatalf("screen %d: a line wider than %d:\n%s", i, width, v)
			}
		}
		more := strings.HasPrefix(lines[height-1], "↓ more")
		if last := i == len(views)-1; more == last {
			t.Fatalf("screen %d of %d: ↓ more shown %v:\n%s", i+1, len(views), more, v)
		}
	}
}

// stitch is the review's whole page from bodies scrolled a line at a
// time (each one line below the last, as checked): the first one's
// lines, then each next one's last, "↓ more" left out.
func stitch(t *testing.T, views []string, height int) []string {
	t.Helper()
	window := func(v string) []string { return strings.Split(v, "\n")[:height-1] }
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

// joinBody is a body's lines without their labels (9 columns) and
// trailing spaces, joined: an address wrapped over lines reads whole.
func joinBody(v string) string {
	var b strings.Builder
	for _, l := range strings.Split(v, "\n") {
		r := []rune(l)
		if len(r) > 9 {
			r = r[9:]
		}
		b.WriteString(strings.TrimRight(string(r), " "))
	}
	return b.String()
}
