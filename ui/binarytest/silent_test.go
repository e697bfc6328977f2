package binarytest

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/facetest"
)

// The real binary in a real terminal, with the default dials: alice's
// mail server goes silent (every connection held open, nothing answered)
// and `r` is pressed. Her badge leaves "● connected" in seconds (the
// issue's goal: 10 s; it took 30 s), while bob's stays connected. The time
// is logged; the bound is only a failure bound for a loaded machine,
// still below the old 30 s.
func TestSilentServerLeavesConnectedInSeconds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	var cfg strings.Builder
	var front *imaptest.Proxy
	for i, name := range []string{"alice", "bob"} {
		srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive})
		raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: "hello " + name,
			Date: time.Now().Add(-time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
		addr := srv.Addr()
		if i == 0 {
			front = imaptest.NewProxy(t, addr)
			addr = front.Addr()
		}
		host, port, _ := net.SplitHostPort(addr)
		fmt.Fprintf(&cfg, "[[account]]\nname = %q\nhost = %q\nport = %s\nsecurity = \"none\"\nusername = \"sam\"\npassword_env = \"UNIBOX_SILENT_PW\"\n\n", name, host, port)
	}
	path := facetest.Write(t, cfg.String())
	s := startTmux(t, bin, []string{"--config", path}, []string{"UNIBOX_SILENT_PW=pw"}, 100, 20)
	s.waitFor("2 of 2 accounts", 30*time.Second)
	s.waitFor("alice ● connected", 30*time.Second)

	t.Cleanup(front.Silence()) // restored once the test is over
	s.keys("Tab")              // focus alice
	s.waitFor("alice", 5*time.Second)
	start := time.Now()
	s.keys("r")
	lines := s.waitUntil("alice's badge leave connected", 25*time.Second, func(lines []string) bool {
		return !strings.Contains(lines[0], "alice ● connected")
	})
	took := time.Since(start)
	t.Logf("the silent server's badge left connected %s after r: %q", took.Round(100*time.Millisecond), strings.TrimSpace(lines[0]))
	if !strings.Contains(lines[0], "bob ● connected") {
		t.Fatalf("bob's badge changed with alice's server:\n%s", strings.Join(lines, "\n"))
	}
	s.keys("i") // the details say why
	s.waitFor("silent", 10*time.Second)
}
