package binarytest

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"unibox/ui/facetest"
)

// The real binary under a pseudo-terminal: the raw bytes it writes carry
// no escape sequence, BEL or C1 byte that came from mail.
func TestHostileCorpusRawTerminalOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	path := facetest.Hostile(t)
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
	ownTitle := regexp.MustCompile("\x1b\\]2;(unibox( \\(~?[0-9]+ unread\\))?)?\x07")
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
