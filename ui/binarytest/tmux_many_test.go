package binarytest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
)

// downNames are the three accounts of manyConfig that are down: two whose
// servers refuse connections, one whose password is wrong. Their names
// carry what a header must not pass to the terminal as is.
var downNames = []string{"Refused 🇫🇷", "Gone\u202eaway", "Wrong password"}

// manyConfig is 20 accounts, 17 of them on one in-process server with a
// message each, the 3 of downNames down, with cooldowns long enough to
// outlast the test.
func manyConfig(t *testing.T) string {
	t.Helper()
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive})
	raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: "Quarterly report",
		Date: time.Now().Add(-time.Hour), Body: "x"}.Bytes()
	if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(facetest.Resilience("10m") + "connect_attempts = 1\n")
	account := func(name string, port int, pwEnv string) {
		b.WriteString(facetest.IMAP(name, port, facetest.Env(pwEnv)))
	}
	for i := range 20 {
		switch i {
		case 4:
			account(downNames[0], imaptest.ClosedPort(t), "UNIBOX_MANY_PW")
		case 11:
			account(downNames[1], imaptest.ClosedPort(t), "UNIBOX_MANY_PW")
		case 17:
			account(downNames[2], srv.Port(), "UNIBOX_MANY_BADPW")
		default:
			account(fmt.Sprintf("Account %02d", i+1), srv.Port(), "UNIBOX_MANY_PW")
		}
	}
	return facetest.Write(t, b.String())
}

// tailCount is N of the bar's "+N down" / "+N more".
func tailCount(bar, what string) int {
	m := regexp.MustCompile(`\+(\d+) ` + what).FindStringSubmatch(bar)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// 20 accounts, 3 of them down, in a real terminal: the bar is one line and
// every down account is on it (its badge shows its state's glyph, ⏸ or ✗)
// or counted in "+N down"; the header names them; no bidi control from a
// name reaches the terminal.
func TestManyAccountsInRealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	path := manyConfig(t)
	for _, size := range [][2]int{{80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := startTmux(t, bin, []string{"--config", path}, []string{"UNIBOX_MANY_PW=pw", "UNIBOX_MANY_BADPW=nope"}, size[0], size[1])
			lines := s.waitUntil("17 of 20 accounts with 3 down", 30*time.Second, func(l []string) bool {
				return strings.HasPrefix(l[1], "17 of 20 accounts") &&
					strings.Count(l[0], "⏸")+strings.Count(l[0], "✗")+tailCount(l[0], "down") == 3
			})
			dump := strings.Join(lines, "\n")
			bar := lines[0]
			if strings.ContainsRune(dump, '\u202e') {
				t.Fatalf("a bidi override reached the terminal:\n%s", dump)
			}
			if w := len([]rune(strings.TrimRight(bar, " "))); w > s.w {
				t.Fatalf("the bar is %d columns:\n%s", w, dump)
			}
			if tailCount(bar, "down") > 0 && !strings.Contains(lines[1], "Refused") {
				t.Fatalf("the bar counts down accounts the header does not name:\n%s", dump)
			}
			if s.w >= 80 {
				for _, name := range []string{"Refused", "Gone", "Wrong"} {
					if !strings.Contains(bar, name) {
						t.Fatalf("at %d columns the bar does not name %q:\n%s", s.w, name, dump)
					}
				}
			}
			shown := strings.Count(bar, "●") + strings.Count(bar, "⏸") + strings.Count(bar, "✗")
			if total := shown + tailCount(bar, "down") + tailCount(bar, "more"); total != 20 {
				t.Fatalf("the bar shows or counts %d accounts, not 20:\n%s", total, dump)
			}
			checkFrameOf(t, s, lines, "20 accounts", "●")
		})
	}
}

// A resize storm, 20 sizes in a second from 40x10 to 200x50, leaves an
// intact frame at the last size, and unibox running.
func TestResizeStormInRealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	path := widthConfig(t)
	total := len(imaptest.HostileCorpus()) + len(widthTorture)
	s := startTmux(t, bin, []string{"--config", path}, []string{"UNIBOX_WIDE_PW=pw"}, 80, 24)
	s.waitFor(fmt.Sprintf("%d messages", total), 20*time.Second)
	sizes := [][2]int{{40, 10}, {200, 50}, {41, 11}, {120, 40}, {57, 13}, {39, 9}, {80, 24}, {43, 10}, {160, 12}, {40, 48},
		{99, 30}, {40, 10}, {61, 15}, {200, 10}, {45, 33}, {70, 20}, {41, 10}, {130, 45}, {52, 17}, {60, 15}}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for _, sz := range sizes {
		<-tick.C
		s.tmux("resize-window", "-t", "%t", "-x", fmt.Sprint(sz[0]), "-y", fmt.Sprint(sz[1]))
	}
	s.w, s.h = 60, 15
	// The header line ("1 of 1 account ·": one account, no plural)
	// proves the frame whole: "Wide" alone is also in every row, so a
	// screen caught mid-redraw (rows on the first line) passed for the
	// frame under load.
	lines := s.waitUntil("the frame at 60x15", 10*time.Second, func(l []string) bool {
		return len(l) == s.h && strings.Contains(l[0], "Wide") && strings.Contains(l[1], "1 of 1 account · ") &&
			strings.Contains(l[s.h-1], "open") && len([]rune(l[s.h-1])) <= s.w
	})
	checkFrame(t, s, lines, "after the storm")
	checkRowsAligned(t, s, lines, "after the storm")
	if dead := strings.TrimSpace(s.tmux("display", "-p", "-t", "%t", "#{pane_dead}")); dead == "1" {
		t.Fatal("unibox died in the storm")
	}
}
