package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/launch"
)

// hostileConfig serves the hostile corpus from an in-process server (with
// non-ASCII folder names) and writes a config reaching it.
func hostileConfig(t *testing.T) string {
	srv := samServer(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Entwürfe": imap.MailboxAttrDrafts, "日本語": ""})
	for _, m := range imaptest.HostileCorpus() {
		if _, err := srv.Append("sam", "INBOX", m.Raw, nil, time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
	}
	t.Setenv("UNIBOX_HOSTILE_PW", "pw")
	return writeConfig(t, fmt.Sprintf("[[account]]\nname = \"Hostile\"\nhost = \"127.0.0.1\"\nport = %d\nsecurity = \"none\"\nusername = \"sam\"\npassword_env = \"UNIBOX_HOSTILE_PW\"\n", srv.Port()))
}

// unsafe reports the first byte or rune from mail that must never reach a
// terminal: C0 controls (but newline and tab in plain text), DEL, C1,
// bidi controls.
func unsafe(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == utf8.RuneError, r == '\n', r == '\t':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			return r, true
		}
	}
	return 0, false
}

func TestHostileCorpusListJSON(t *testing.T) {
	path := hostileConfig(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"list", "--json", "--config", path}, &stdout, &stderr); code != launch.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if bytes.ContainsAny(stdout.Bytes(), "\x1b\x07\x00") {
		t.Fatal("raw control bytes in the JSON output")
	}
	var out cli.ListJSON
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != len(imaptest.HostileCorpus()) {
		t.Fatalf("%d messages listed, want every one of %d", len(out.Messages), len(imaptest.HostileCorpus()))
	}
	for _, m := range out.Messages {
		for _, s := range []string{m.Subject, m.From.Name, m.From.Address, m.MessageID} {
			if r, bad := unsafe(s); bad {
				t.Errorf("%s: %U in %q", m.ID, r, s)
			}
		}
	}
	subjects := fmt.Sprint(out.Messages)
	for _, want := range []string{"Café crème brûlée", "日本語の件名", "“Smart” quotes", "Your invoice", "No date at all"} {
		if !strings.Contains(subjects, want) {
			t.Errorf("decoded subject %q missing", want)
		}
	}
}

// The real binary under a pseudo-terminal: the raw bytes it writes carry
// no escape sequence, BEL or C1 byte that came from mail.
func TestHostileCorpusRawTerminalOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	path := hostileConfig(t)
	r := startPTY(t, buildUnibox(t), []string{"--config", path}, []string{"UNIBOX_HOSTILE_PW=pw"}, 24, 80)
	r.waitScreen(15*time.Second, "Hostile ● connected", "brûlée")
	r.press("q")
	if err := r.wait(15 * time.Second); err != nil {
		t.Fatalf("unibox exited with %v", err)
	}
	raw := r.out.String()
	// The program's own startup queries (terminal background, cursor
	// position) come before it enters the alternate screen; mail comes after.
	if i := strings.Index(raw, "\x1b[?1049h"); i >= 0 {
		raw = raw[i:]
	}
	// unibox's own title (the unread total, a number and nothing else,
	// and the empty one set at exit) is the one OSC sequence the terminal
	// may get; mail gets none.
	ownTitle := regexp.MustCompile("\x1b\\]2;(unibox( \\([0-9]+ unread\\))?)?\x07")
	raw = ownTitle.ReplaceAllString(raw, "")
	for _, bad := range []string{"]52;", "]0;pwned", "]0;title", "]8;;", "\x1bP", "[6n", "[5n", "\x07", "pwned'", "alert("} {
		if strings.Contains(raw, bad) {
			i := strings.Index(raw, bad)
			t.Errorf("the terminal received %q from mail: %q", bad, raw[max(0, i-60):min(len(raw), i+40)])
		}
	}
	for _, r := range raw {
		if (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("the terminal received %U", r)
		}
	}
}

// stripANSI drops the renderer's own CSI sequences, to look for text.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
