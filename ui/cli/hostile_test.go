package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
	"unicode/utf8"
)

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
	path := facetest.Hostile(t)
	var stdout, stderr bytes.Buffer
	if code := cli.List([]string{"--json", "--config", path}, &stdout, &stderr); code != launch.ExitOK {
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
