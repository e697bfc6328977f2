package compose

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Attach lines: any number, any case, in the order written, each path
// kept exactly as the person wrote it (~ and spaces included: reading
// the file is drafting's), and written back by Editable so a draft
// round-trips; base's attachments (a forward's) stay.
func TestParseAttachLines(t *testing.T) {
	base := Draft{Kind: KindForward, From: alice, Attachments: []Part{{Name: "fwd.pdf", Type: "application/pdf", Data: []byte("%PDF")}}}
	text := "To: b@example.com\nAttach: ~/Documents/Q3 report.pdf\nSubject: numbers\nattach:   /tmp/a.png  \nATTACH: rel/notes.txt\n\nbody\nAttach: /etc/passwd\n"
	d, err := Parse(text, base)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"~/Documents/Q3 report.pdf", "/tmp/a.png", "rel/notes.txt"}
	if !reflect.DeepEqual(d.Attach, want) {
		t.Errorf("Attach = %q, want %q (a line in the body is body)", d.Attach, want)
	}
	if !reflect.DeepEqual(d.Attachments, base.Attachments) {
		t.Errorf("the forward's attachments changed: %+v", d.Attachments)
	}
	again, err := Parse(d.Editable(), base)
	if err != nil {
		t.Fatalf("Parse(Editable()): %v\n%s", err, d.Editable())
	}
	if !reflect.DeepEqual(again, d) {
		t.Errorf("round trip:\n got %+v\nwant %+v", again, d)
	}
	if !strings.Contains(d.Editable(), "Subject: numbers\nAttach: ~/Documents/Q3 report.pdf\nAttach: /tmp/a.png\nAttach: rel/notes.txt\n\n") {
		t.Errorf("Editable does not list the Attach lines after Subject:\n%s", d.Editable())
	}
}

// A bad Attach line is refused as a *LineError naming it, as any header
// line is: no path, the same file twice, a control character.
func TestParseAttachRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		want       error
	}{
		{"no path", "To: b@example.com\nAttach:   \n\n", 2, ErrNoPath},
		{"twice", "To: b@example.com\nAttach: /tmp/a\nAttach:  /tmp/a\n\n", 3, ErrAttachedTwice},
		{"escape", "To: b@example.com\nAttach: /tmp/\x1b[2Ja\n\n", 2, ErrControl},
		{"continuation", "To: b@example.com\nAttach: /tmp/a\n  b\n\n", 3, ErrContinuation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.text, Draft{From: alice})
			var le *LineError
			if !errors.As(err, &le) || le.Line != tc.line || !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want line %d: %v", err, tc.line, tc.want)
			}
		})
	}
	if !strings.Contains(ErrUnknownHeader.Error(), "Attach") {
		t.Errorf("the unknown-header refusal does not name Attach: %v", ErrUnknownHeader)
	}
}

// The review's attach key adds its line at the end of the header block,
// where Parse reads it, leaving the rest of the text as it was; the same
// path twice, an empty one or one with a control character is refused.
func TestWithAttach(t *testing.T) {
	text := "From: a@example.org\nTo: b@example.com\nSubject: s\nAttach: ~/a.pdf\n\nbody\nAttach: not a header\n"
	got, err := WithAttach(text, " ~/b c.png ")
	want := "From: a@example.org\nTo: b@example.com\nSubject: s\nAttach: ~/a.pdf\nAttach: ~/b c.png\n\nbody\nAttach: not a header\n"
	if err != nil || got != want {
		t.Fatalf("got %q, %v\nwant %q", got, err, want)
	}
	if d, err := Parse(got, Draft{From: alice}); err != nil || !reflect.DeepEqual(d.Attach, []string{"~/a.pdf", "~/b c.png"}) {
		t.Errorf("read back: %q, %v", d.Attach, err)
	}
	if got, err := WithAttach("To: b@example.com", "/x"); err != nil || got != "To: b@example.com\nAttach: /x\n" {
		t.Errorf("no blank line: %q, %v", got, err)
	}
	for path, want := range map[string]error{"~/a.pdf": ErrAttachedTwice, "  ": ErrNoPath, "/tmp/\x1b[2Jx": ErrControl} {
		if _, err := WithAttach(text, path); !errors.Is(err, want) {
			t.Errorf("WithAttach(%q): %v, want %v", path, err, want)
		}
	}
}
