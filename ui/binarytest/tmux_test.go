package binarytest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/model/textsafe"
	"unibox/ui/facetest"
)

// tmuxScreen is the real binary in a real terminal (tmux), where width is
// measured by the terminal, not by our own function: the teatest goldens
// cannot see a row the terminal draws wider than we measured.
type tmuxScreen struct {
	t       *testing.T
	session string
	w, h    int
}

// cUTF8 is the default locale of the real-terminal tests.
var cUTF8 = termLocale{name: "C.UTF-8", lang: "C.UTF-8"}

// startTmux runs bin in a detached tmux session of w x h with env (and a
// UTF-8 locale, or tmux would draw every non-ASCII character as "_").
func startTmux(t *testing.T, bin string, args []string, env []string, w, h int) *tmuxScreen {
	t.Helper()
	return startTmuxIn(t, cUTF8, bin, args, env, w, h)
}

// startTmuxIn is startTmux with tmux and unibox under loc.
func startTmuxIn(t *testing.T, loc termLocale, bin string, args []string, env []string, w, h int) *tmuxScreen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing (.ci/run installs it)")
		}
		t.Skip("tmux is not installed")
	}
	s := &tmuxScreen{t: t, session: fmt.Sprintf("unibox-test-%d-%d", os.Getpid(), time.Now().UnixNano()), w: w, h: h}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	locEnv := []string{"LANG=" + loc.lang}
	if loc.locpath != "" {
		locEnv = append(locEnv, "LOCPATH="+loc.locpath)
	}
	cmdline := append(append([]string{"env", "-i", "TERM=tmux-256color", "HOME=" + t.TempDir()}, locEnv...), env...)
	cmdline = append(cmdline, bin)
	cmdline = append(cmdline, args...)
	tmuxArgs := append([]string{"-S", sock, "-u", "-f", "/dev/null", "new-session", "-d", "-s", s.session, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)}, cmdline...)
	cmd := exec.Command("tmux", tmuxArgs...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TMUX_TMPDIR=" + t.TempDir()}, locEnv...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	s.session = sock + "|" + s.session
	pid, _ := strconv.Atoi(strings.TrimSpace(s.tmux("list-panes", "-t", "%t", "-F", "#{pane_pid}")))
	t.Cleanup(func() {
		s.tmux("kill-server")
		// kill-server only sends SIGHUP: unibox may still be writing its
		// history under HOME, which t.TempDir's own cleanup (run after
		// this one) removes. Wait for it to be gone (CI once saw
		// "directory not empty").
		waitGone(t, pid, 20*time.Second)
	})
	return s
}

// xdgIn is the environment that keeps a unibox run in tmux to folders of
// dir: its data, cache and state.
func xdgIn(dir string) []string {
	return []string{"XDG_DATA_HOME=" + filepath.Join(dir, "data"), "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "XDG_STATE_HOME=" + filepath.Join(dir, "state")}
}

// waitGone waits until process pid no longer exists (it is tmux's child,
// not ours: it is polled, not waited for); bound is a failure bound,
// after which it is killed.
func waitGone(t *testing.T, pid int, bound time.Duration) {
	if pid <= 0 {
		return
	}
	deadline := time.Now().Add(bound)
	for syscall.Kill(pid, 0) == nil {
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && strings.Contains(string(stat), ") Z ") {
			return // exited, not yet reaped by init
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("unibox (pid %d) still ran %s after its terminal went away", pid, bound)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *tmuxScreen) tmux(args ...string) string {
	sock, name, _ := strings.Cut(s.session, "|")
	full := append([]string{"-S", sock}, args...)
	for i, a := range full {
		if a == "%t" {
			full[i] = name
		}
	}
	cmd := exec.Command("tmux", full...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	out, _ := cmd.Output()
	return string(out)
}

// capture is the screen as tmux holds it, one string per terminal line.
func (s *tmuxScreen) capture() []string {
	out := s.tmux("capture-pane", "-p", "-t", "%t")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for len(lines) < s.h {
		lines = append(lines, "")
	}
	return lines
}

// waitFor waits until the screen shows want; bound is a failure bound.
func (s *tmuxScreen) waitFor(want string, bound time.Duration) []string {
	s.t.Helper()
	return s.waitUntil(want, bound, func(lines []string) bool { return strings.Contains(strings.Join(lines, "\n"), want) })
}

// waitUntil waits until ok holds for a settled screen; bound is a failure
// bound. Settled: the same screen twice, 50 ms apart. A capture can land
// while tmux is still drawing a frame (the header of the new frame is up,
// its last rows are not), and under load that half-drawn screen passed
// for the frame and failed its column checks.
func (s *tmuxScreen) waitUntil(what string, bound time.Duration, ok func([]string) bool) []string {
	s.t.Helper()
	deadline := time.Now().Add(bound)
	for {
		lines := s.capture()
		if ok(lines) {
			time.Sleep(50 * time.Millisecond)
			if again := s.capture(); slices.Equal(again, lines) {
				return lines
			}
			continue
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%dx%d: the screen never showed %s:\n%s", s.w, s.h, what, strings.Join(lines, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *tmuxScreen) keys(k ...string) { s.tmux(append([]string{"send-keys", "-t", "%t"}, k...)...) }

// widthTorture are subjects whose clusters terminals draw at widths of
// their own (see model/textsafe/cluster.go), with names to find them by.
var widthTorture = []string{
	"Family 👨‍👩‍👧 trip and 🏳️‍🌈 parade",
	"Flags 🇩🇪🇯🇵🇧🇷 and a lone 🇩",
	"Thumbs 👍🏽👍🏿 skin tones",
	"Zalgo Z̷̢̛̛̮̣͎a̵͓̐l̴̢̛g̸͍̈o̶̧̍ text",
	"Zero\u200bwidth\u2060joiners\u00adand\ufeffBOM",
	"Fullwidth ＡＢＣ and 漢字かな",
	"RTL שלום עולם مرحبا",
	"Keycap 1️⃣2️⃣ and ❤️ hearts ⚠️",
	"Hindi क्षत्रिय and Tamil கொண்டு",
	"Ambiguous …●± ½ ① Ωμέγα Жизнь ─ ‖ ※",
}

// widthConfig serves the hostile corpus and the width-torture subjects
// from one in-process account.
func widthConfig(t *testing.T) string {
	t.Helper()
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive})
	when := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for _, m := range imaptest.HostileCorpus() {
		if _, err := srv.Append("sam", "INBOX", m.Raw, nil, when); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
	}
	for i, subj := range widthTorture {
		raw := imaptest.Mail{From: "Zoë 👩🏽‍💻 Müller <z@example.org>", To: "sam@example.org", Subject: subj,
			Date: when.Add(time.Duration(i) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, when); err != nil {
			t.Fatal(err)
		}
	}
	return facetest.Write(t, facetest.IMAP("Wide", srv.Port(), facetest.Env("UNIBOX_WIDE_PW")))
}

// checkFrame: line 1 is the account bar, the last line the key hints, and
// every row's time column ends at the same column.
func checkFrame(t *testing.T, s *tmuxScreen, lines []string, when string) {
	t.Helper()
	checkFrameOf(t, s, lines, when, "Wide")
}

// checkFrameOf is checkFrame with a bar that shows barWord.
func checkFrameOf(t *testing.T, s *tmuxScreen, lines []string, when, barWord string) {
	t.Helper()
	dump := strings.Join(lines, "\n")
	if len(lines) != s.h {
		t.Fatalf("%s at %dx%d: %d lines:\n%s", when, s.w, s.h, len(lines), dump)
	}
	if !strings.Contains(lines[0], barWord) {
		t.Fatalf("%s at %dx%d: line 1 is not the account bar:\n%s", when, s.w, s.h, dump)
	}
	if last := lines[s.h-1]; !strings.Contains(last, "open") && !strings.Contains(last, "back") && !strings.Contains(last, "?") {
		t.Fatalf("%s at %dx%d: the last line is not the key hints:\n%s", when, s.w, s.h, dump)
	}
}

// checkRowsAligned: every list row ends in its time at the last column.
func checkRowsAligned(t *testing.T, s *tmuxScreen, lines []string, when string) {
	t.Helper()
	for _, l := range lines[2 : s.h-2] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		row := strings.TrimRight(l, " ")
		if w := textsafe.Width(row); w != s.w {
			t.Fatalf("%s at %dx%d: a row ends at column %d, not %d:\n%q\n%s", when, s.w, s.h, w, s.w, l, strings.Join(lines, "\n"))
		}
		if f := strings.Fields(row); strings.Contains(f[len(f)-1], "…") {
			t.Fatalf("%s at %dx%d: a row's time is cut:\n%q\n%s", when, s.w, s.h, l, strings.Join(lines, "\n"))
		}
	}
}

// The account bar, the hints and the time column hold in a real terminal,
// whatever the mail holds, at every size, in the list, around a message and
// through the help; under C.UTF-8 and two Japanese locales, one whose
// terminal draws ambiguous-width characters narrow, one wide.
func TestFrameInRealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	path := widthConfig(t)
	total := len(imaptest.HostileCorpus()) + len(widthTorture)
	for _, loc := range append([]termLocale{cUTF8}, eastAsianLocales(t)...) {
		t.Run(loc.name, func(t *testing.T) {
			// The test measures rows as this terminal draws them: one
			// setting for the locale's sizes, which run side by side
			// (each its own tmux server and unibox; most of their time
			// is waiting on screens).
			textsafe.SetAmbiguousWide(loc.wide)
			t.Cleanup(func() { textsafe.SetAmbiguousWide(false) })
			for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 15}, {40, 10}} {
				t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
					t.Parallel()
					s := startTmuxIn(t, loc, bin, []string{"--config", path}, []string{"UNIBOX_WIDE_PW=pw"}, size[0], size[1])
					checkScreens(t, s, total)
				})
			}
		})
	}
}

// checkScreens walks the screens of the width corpus in s: the list, G and
// g, a message and back, every page of the help.
func checkScreens(t *testing.T, s *tmuxScreen, total int) {
	t.Helper()
	lines := s.waitFor(fmt.Sprintf("%d messages", total), 20*time.Second)
	checkFrame(t, s, lines, "first screen")
	checkRowsAligned(t, s, lines, "first screen")
	// G puts the cursor on the last row on screen, g on the first.
	for _, step := range []struct {
		key, when string
		last      bool
	}{{"G", "after G", true}, {"g", "after g", false}} {
		s.keys(step.key)
		lines = s.waitUntil("the cursor "+step.when, 10*time.Second, func(l []string) bool {
			rows := l[2 : s.h-2]
			for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
				rows = rows[:len(rows)-1]
			}
			if step.last {
				return len(rows) > 0 && strings.HasPrefix(rows[len(rows)-1], ">")
			}
			return len(rows) > 0 && strings.HasPrefix(rows[0], ">")
		})
		checkFrame(t, s, lines, step.when)
		checkRowsAligned(t, s, lines, step.when)
	}
	s.keys("Enter")
	lines = s.waitFor("From", 10*time.Second)
	checkFrame(t, s, lines, "in a message")
	s.keys("Escape")
	lines = s.waitFor(fmt.Sprintf("%d messages", total), 10*time.Second)
	checkFrame(t, s, lines, "back from a message")
	// ? steps through the help's pages and closes it after the last.
	s.keys("?")
	lines = s.waitFor("page down", 10*time.Second)
	for page := 1; ; page++ {
		checkFrame(t, s, lines, fmt.Sprintf("help page %d", page))
		last := lines[s.h-1]
		if !strings.Contains(last, "? more") {
			break
		}
		s.keys("?")
		next := fmt.Sprintf("(%d/", page+1)
		lines = s.waitUntil("help page "+fmt.Sprint(page+1), 10*time.Second, func(l []string) bool { return strings.Contains(l[s.h-1], next) })
	}
	s.keys("?")
	lines = s.waitUntil("the help closed", 10*time.Second, func(l []string) bool { return strings.Contains(l[s.h-1], "open") })
	checkFrame(t, s, lines, "after the help")
}
