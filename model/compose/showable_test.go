package compose

import (
	"errors"
	"strings"
	"testing"
	"unibox/model"
)

// What a terminal would not show as it is sent is refused, with the field,
// the line and the character; text a terminal shows faithfully passes.
func TestCheckShowable(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		multi      bool
		line       int
		r          rune
	}{
		{"plain", "Hello,\n\tindented\r\nbye", true, 0, 0},
		{"emoji family", "👨\u200d👩\u200d👧 and 🏴\u200d☠️", true, 0, 0},
		{"replacement char as text", "broken \uFFFD char", true, 0, 0},
		{"escape", "ok\nred \x1b[31m", true, 2, 0x1b},
		{"lone cr", "line one\rline two", true, 1, '\r'},
		{"newline in one-line field", "a\nb", false, 0, '\n'},
		{"rlo", "invoice\u202Efdp.exe", true, 1, 0x202e},
		{"isolate", "\u2067x", true, 1, 0x2067},
		{"zwsp", "pay\u200bpal", true, 1, 0x200b},
		{"zwj between letters", "pa\u200dypal", true, 1, 0x200d},
		{"bom", "\ufeffhi", true, 1, 0xfeff},
		{"c1", "a\u0085b", true, 1, 0x85},
		{"line separator", "a\u2028b", true, 1, 0x2028},
		{"bad utf-8", "a\xffb", true, 1, 0xfffd},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckShowable("body", tc.text, tc.multi)
			if tc.r == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ue *UnshowableError
			if !errors.As(err, &ue) || ue.Rune != tc.r || ue.Line != tc.line || ue.Field != "body" {
				t.Fatalf("err = %v (%+v), want %U on line %d", err, ue, tc.r, tc.line)
			}
		})
	}
}

// Every reviewed field is checked, and the error names it.
func TestCheckDraftShowable(t *testing.T) {
	d := Draft{From: alice, To: []model.Address{bob}, Subject: "Re: lunch", Body: "ok\n"}
	if err := CheckDraftShowable(d); err != nil {
		t.Fatal(err)
	}
	bad := d
	bad.Cc = []model.Address{{Name: "Bob\u202e", Address: "x@evil.example"}}
	var ue *UnshowableError
	if err := CheckDraftShowable(bad); !errors.As(err, &ue) || ue.Field != "cc" {
		t.Fatalf("err = %v, want the cc named", err)
	}
	bad = d
	bad.Subject = "Re:\u200b lunch"
	if err := CheckDraftShowable(bad); !errors.As(err, &ue) || ue.Field != "subject" {
		t.Fatalf("err = %v, want the subject named", err)
	}
}

// What an answer takes from a stranger's mail (names, subject, the quote,
// a forward's header block) has its hidden characters dropped, so a
// person can answer such a mail and the review still shows what goes.
func TestAnswersDropHiddenCharacters(t *testing.T) {
	o := Original{MessageID: "x@example.com", From: model.Address{Name: "B\u200bob\u202e", Address: "bob@example.com"},
		To: []model.Address{alice}, Subject: "in\u200bvoice\u00ad", Text: "pay\u2060 now\ufeff\nfamily 👨\u200d👩\u200d👧"}
	for _, d := range []Draft{Reply(o, self, false), Reply(o, self, true), Forward(o, self)} {
		if err := CheckDraftShowable(d); err != nil {
			t.Errorf("%v: %v", d.Kind, err)
		}
		if !strings.Contains(d.Body, "👨\u200d👩\u200d👧") {
			t.Errorf("%v lost the emoji family: %q", d.Kind, d.Body)
		}
	}
}
