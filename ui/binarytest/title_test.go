package binarytest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
)

// The terminal title carries the unread total, and follows it: in a real
// terminal (tmux reads the title the binary sets), marking a message read
// or unread changes it by one. Nothing of the mail itself is in it.
func TestTerminalTitleIsTheUnreadTotal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	// Not the demo: its schedule brings new mail while the test runs.
	path := fiveUnread(t)
	s := startTmux(t, buildUnibox(t), []string{"--config", path}, []string{"UNIBOX_TEST_PW=pw"}, 100, 30)
	s.waitFor("5 messages", 20*time.Second)
	re := regexp.MustCompile(`^unibox \((\d+) unread\)$`)
	unread := func() int {
		var n int
		deadline := time.Now().Add(10 * time.Second)
		for {
			title := strings.TrimSpace(s.tmux("display-message", "-p", "-t", "%t", "#{pane_title}"))
			if m := re.FindStringSubmatch(title); m != nil {
				n, _ = strconv.Atoi(m[1])
				return n
			}
			if time.Now().After(deadline) {
				t.Fatalf("title %q", title)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	before := unread()
	s.keys("u") // toggle read on the first row
	deadline := time.Now().Add(10 * time.Second)
	for after := unread(); after == before; after = unread() {
		if time.Now().After(deadline) {
			t.Fatalf("the title stayed at %d unread after u", before)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if after := unread(); after != before-1 && after != before+1 {
		t.Fatalf("title went from %d to %d unread", before, after)
	}
}

// Quitting gives the terminal its own title back: in tmux, a shell sets
// its title, runs unibox (the title becomes the unread count), quits it,
// and the title is the shell's again, not a stale "unibox (5 unread)".
func TestTerminalTitleIsRestoredOnQuit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	path := fiveUnread(t)
	script := `printf '\033]2;my shell\033\\'; "$@"; echo "unibox exited $?"; read x`
	s := startTmux(t, "/bin/sh", []string{"-c", script, "sh", buildUnibox(t), "--config", path}, []string{"UNIBOX_TEST_PW=pw"}, 100, 30)
	title := func() string { return strings.TrimSpace(s.tmux("display-message", "-p", "-t", "%t", "#{pane_title}")) }
	s.waitFor("5 messages", 20*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for title() != "unibox (5 unread)" {
		if time.Now().After(deadline) {
			t.Fatalf("title while running: %q", title())
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.keys("q")
	s.waitFor("unibox exited 0", 20*time.Second)
	if got := title(); got != "my shell" {
		t.Fatalf("title after quitting: %q, want the shell's", got)
	}
}

// fiveUnread is a config of one account whose INBOX holds five unread
// messages.
func fiveUnread(t *testing.T) string {
	srv := facetest.Sam(t, "pw", nil)
	for i := range 5 {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("unread %d", i), Date: time.Now().Add(-time.Duration(i) * time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return facetest.OneAccount(t, srv)
}
