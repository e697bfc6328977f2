package binarytest

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"unibox/accounts/history"
	"unibox/accounts/unsubscribe/unsubtest"
)

// The real binary in a real terminal refuses a one-click it cannot
// trust: U on an unsigned https one-click, and on an http one, shows the
// link as text and why, and y then sends nothing. The links point at a
// listener of the test's that counts connections (none may come), and
// the account's history file says what was refused. No message here is
// signed: the binary's serve-imap asks the system's DNS for DKIM keys,
// and a test reaches no DNS (the signed cases are in teatest, with the
// keys injected).
func TestUnsubscribeRefusedInRealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	mk := func(subject, uri string, hour string) []byte {
		raw := string(unsubtest.Mail("news@list.example", true, uri))
		raw = strings.Replace(raw, "Subject: This week", "Subject: "+subject, 1)
		return []byte(strings.Replace(raw, "10:00:00 +0000", hour+":00:00 +0000", 1))
	}
	for _, c := range []struct {
		name  string
		world func(*testing.T, string) *replyWorld
	}{{"memimap", replyMemWorld}, {"dovecot", replyDovecotWorld}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := c.world(t, "auto")
			w.seed(t, "sender", "INBOX", mk("Unsigned news", "https://127.0.0.1:"+itoa(port)+"/u/1", "11"))
			w.seed(t, "sender", "INBOX", mk("Plain news", "http://127.0.0.1:"+itoa(port)+"/u/2", "10"))
			r := newSendRun(t, w, "true", "0s")
			s := startTmux(t, r.bin, []string{"--config", r.cfg}, r.env, 200, 30)
			s.waitFor("Plain news", 30*time.Second)
			s.waitFor("Unsigned news", 5*time.Second)
			s.keys("j") // below Bob's lunch?, the world's own message
			s.waitFor("> •   Work News               Unsigned news", 10*time.Second)
			start := time.Now()
			s.keys("U")
			s.waitFor("unsubscribe: not opened", 30*time.Second)
			t.Logf("U to the refusal on screen (unsubscribe_info through serve-imap): %v", time.Since(start).Round(time.Millisecond))
			s.waitFor("no DKIM signature", 5*time.Second)
			s.keys("y") // nothing was offered: no answer to give
			time.Sleep(100 * time.Millisecond)
			s.keys("j") // one key a write: keys sent together arrive as one
			s.waitFor("> •   Work News               Plain news", 10*time.Second)
			s.keys("U")
			s.waitFor("the URI is not https", 30*time.Second)
			s.keys("y")
			time.Sleep(300 * time.Millisecond) // a POST, were one made, would have connected by now
			if n := conns.Load(); n != 0 {
				t.Fatalf("%d connections to the unsubscribe links", n)
			}
			log := filepath.Join(filepath.Dir(r.data), "..", "state", "unibox", history.FileName("Work"))
			b, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(string(b), "refused: unsubscribe: not opened"); got != 2 {
				t.Fatalf("history has %d refusals, want 2:\n%s", got, b)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A mailto: unsubscribe in the real binary: U shows the message it will
// send, y puts it through the account's outbox and SMTP, and what
// arrives goes to the one address with the URI's subject and body and
// nothing of its cc or bcc.
func TestUnsubscribeMailtoInRealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	for _, c := range []struct {
		name  string
		world func(*testing.T, string) *replyWorld
	}{{"memimap", replyMemWorld}, {"dovecot", replyDovecotWorld}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := c.world(t, "never")
			raw := string(unsubtest.Mail("news@list.example", false, "mailto:leave@list.example?subject=stop%0D%0ABcc:%20x@evil.example&cc=boss@corp.example&body=bye"))
			w.seed(t, "sender", "INBOX", []byte(strings.Replace(raw, "Subject: This week", "Subject: Mailto news", 1)))
			r := newSendRun(t, w, "true", "0s")
			s := startTmux(t, r.bin, []string{"--config", r.cfg}, r.env, 200, 30)
			s.waitFor("Mailto news", 30*time.Second)
			s.keys("j")
			s.waitFor("> •   Work News               Mailto news", 10*time.Second)
			s.keys("U")
			s.waitFor(`to leave@list.example, subject "stop Bcc: x@evil.example", body "bye" (left out: cc)`, 30*time.Second)
			s.keys("y")
			s.waitFor("unsubscribed (the message to leave@list.example was sent)", 30*time.Second)
			eventually(t, "the unsubscribe delivered", 30*time.Second, func() bool { return len(w.smtp.Delivered()) == 1 })
			d := w.smtp.Delivered()[0]
			if len(d.Rcpt) != 1 || d.Rcpt[0] != "leave@list.example" {
				t.Fatalf("recipients %v", d.Rcpt)
			}
			head, body, _ := strings.Cut(string(d.Data), "\r\n\r\n")
			if !strings.Contains(head, "\r\nSubject: stop Bcc: x@evil.example\r\n") || !strings.Contains(body, "bye") ||
				strings.Contains(strings.ToLower(head), "\r\ncc:") || strings.Contains(strings.ToLower(head), "\r\nbcc:") {
				t.Fatalf("the message sent:\n%s", d.Data)
			}
		})
	}
}
