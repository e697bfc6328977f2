package compose

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"unibox/model"
)

// secret is "Thanks, see you Monday." followed by "pw=hunter2" written in
// Unicode tag characters: what issue 35's covert channel looked like on
// the review screen (the sentence) and on the wire (both).
var secret = "Thanks, see you Monday." + tagged("pw=hunter2")

// tagged writes ASCII s in tag characters (U+E0020..U+E007E), invisible.
func tagged(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(0xE0000 + r)
	}
	return b.String()
}

// What a terminal would not show as it is sent is refused, with the field,
// the line and the character; text a terminal shows faithfully passes.
// Every code point issue 35 found passing is here, and its exceptions.
func TestCheckShowable(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		multi      bool
		line       int
		r          rune
	}{
		{"plain", "Hello,\n\tindented\r\nbye", true, 0, 0},
		{"emoji family", "👨\u200d👩\u200d👧 and 🏴\u200d☠️", true, 0, 0},
		{"emoji presentation", "I ❤\ufe0f it, ❤\ufe0e too", true, 0, 0},
		{"rainbow flag", "🏳\ufe0f\u200d🌈", false, 0, 0},
		{"skin tone in a zwj sequence", "👩🏽\u200d💻", false, 0, 0},
		{"keycap", "press 1\ufe0f\u20e3 or #\u20e3", false, 0, 0},
		{"persian zwnj", "می\u200cخواهم", false, 0, 0},
		{"arabic zwnj after a vowel sign", "بِ\u200cه", false, 0, 0},
		{"devanagari zwj half form", "क्\u200dष and र्\u200dय", true, 0, 0},
		{"devanagari zwnj", "क्\u200cष", true, 0, 0},
		{"sinhala zwj", "ශ්\u200dරී", true, 0, 0},
		{"accents and scripts", "e\u0301 Zoë 日本語 한국어 Ωμέγα", true, 0, 0},
		{"replacement char as text", "broken \uFFFD char", true, 0, 0},
		{"ideographic space", "a\u3000b", false, 0, 0},

		{"tag-encoded secret", "ok\n" + secret, true, 2, 0xE0070},
		{"tag begin", "a\U000E0001", true, 1, 0xE0001},
		{"cancel tag", "🏴\U000E007F", true, 1, 0xE007F},
		{"tag flag (tags are refused)", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", true, 1, 0xE0067},
		{"vs16 after a letter", "a\ufe0f", true, 1, 0xFE0F},
		{"vs15 after a letter", "a\ufe0e", true, 1, 0xFE0E},
		{"vs1 after an emoji", "❤\ufe00", true, 1, 0xFE00},
		{"vs16 twice", "❤\ufe0f\ufe0f", true, 1, 0xFE0F},
		{"vs16 after a digit", "1\ufe0f", true, 1, 0xFE0F},
		{"vs17", "a\U000E0100", true, 1, 0xE0100},
		{"vs256", "a\U000E01EF", true, 1, 0xE01EF},
		{"mongolian fvs", "ᠠ\u180b", true, 1, 0x180B},
		{"function application", "a\u2061b", true, 1, 0x2061},
		{"invisible times", "a\u2062b", true, 1, 0x2062},
		{"invisible separator", "a\u2063b", true, 1, 0x2063},
		{"invisible plus", "a\u2064b", true, 1, 0x2064},
		{"mongolian vowel separator", "a\u180eb", true, 1, 0x180E},
		{"hangul filler", "a\u3164b", true, 1, 0x3164},
		{"hangul choseong filler", "\u115f", false, 0, 0x115F},
		{"hangul jungseong filler", "가\u1160", false, 0, 0x1160},
		{"halfwidth hangul filler", "a\uffa0b", true, 1, 0xFFA0},
		{"combining grapheme joiner", "a\u034fb", true, 1, 0x034F},
		{"khmer inherent aq", "ក\u17b4", true, 1, 0x17B4},
		{"khmer inherent aa", "ក\u17b5", true, 1, 0x17B5},
		{"braille blank", "a\u2800b", true, 1, 0x2800},
		{"annotation anchor", "a\ufff9b", true, 1, 0xFFF9},
		{"annotation separator", "a\ufffab", true, 1, 0xFFFA},
		{"annotation terminator", "a\ufffbb", true, 1, 0xFFFB},
		{"unassigned", "a\u0378", true, 1, 0x0378},
		{"unassigned astral", "a\U0002FFFD", true, 1, 0x2FFFD},
		{"noncharacter", "a\uffff", true, 1, 0xFFFF},
		{"private use", "a\ue000", true, 1, 0xE000},
		{"mark on nothing", "ok\n\u0301a", true, 2, 0x0301},
		{"mark after a tab", "a\t\u0301", true, 1, 0x0301},
		{"skin tone on nothing", "\U0001F3FD", false, 0, 0x1F3FD},
		{"zwnj between latin letters", "pay\u200cpal", true, 1, 0x200C},
		{"zwj between latin letters", "pa\u200dypal", true, 1, 0x200D},
		{"zwj between scripts", "क\u200dب", true, 1, 0x200D},
		{"zwj at the end", "क्\u200d", true, 1, 0x200D},
		{"zwj between two emoji and a letter", "👨\u200da", true, 1, 0x200D},
		{"escape", "ok\nred \x1b[31m", true, 2, 0x1b},
		{"lone cr", "line one\rline two", true, 1, '\r'},
		{"newline in one-line field", "a\nb", false, 0, '\n'},
		{"tab in one-line field", "a\tb", false, 0, '\t'},
		{"rlo", "invoice\u202Efdp.exe", true, 1, 0x202e},
		{"isolate", "\u2067x", true, 1, 0x2067},
		{"zwsp", "pay\u200bpal", true, 1, 0x200b},
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

// An unassigned code point's error names the Unicode version of the
// tables, so a person whose emoji is newer than them is told why.
func TestUnassignedNamesTheVersion(t *testing.T) {
	err := CheckShowable("subject", "new emoji \U0001FAE9", false) // assigned in Unicode 16
	if err == nil || !strings.Contains(err.Error(), "Unicode "+unicode.Version) {
		t.Fatalf("err = %v, want the Unicode version %s named", err, unicode.Version)
	}
}

// Every reviewed field is checked, and the error names it.
func TestCheckDraftShowable(t *testing.T) {
	d := Draft{From: alice, To: []model.Address{bob}, Subject: "Re: lunch", Body: "ok\n",
		Attachments: []Part{{Name: "plan.pdf"}}}
	if err := CheckDraftShowable(d); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		spoil func(*Draft)
	}{
		{"cc", func(d *Draft) { d.Cc = []model.Address{{Name: "Bob\u202e", Address: "x@evil.example"}} }},
		{"to", func(d *Draft) { d.To = []model.Address{{Name: "Bob" + tagged("hi"), Address: "bob@example.com"}} }},
		{"subject", func(d *Draft) { d.Subject = "Re:\u200b lunch" }},
		{"subject", func(d *Draft) { d.Subject = "Re: lunch\u3164" }},
		{"attachment 2's name", func(d *Draft) { d.Attachments = append(d.Attachments, Part{Name: "a\u2064.pdf"}) }},
		{"body", func(d *Draft) { d.Body = secret }},
	} {
		bad := d
		bad.Attachments = append([]Part(nil), d.Attachments...)
		tc.spoil(&bad)
		var ue *UnshowableError
		if err := CheckDraftShowable(bad); !errors.As(err, &ue) || ue.Field != tc.field {
			t.Errorf("err = %v, want the %s named", err, tc.field)
		}
	}
}

// What an answer takes from a stranger's mail (names, subject, the quote,
// a forward's header block) has its hidden characters dropped, so a
// person can answer such a mail and the review still shows what goes.
func TestAnswersDropHiddenCharacters(t *testing.T) {
	o := Original{MessageID: "x@example.com", From: model.Address{Name: "B\u200bob\u202e\u3164", Address: "bob@example.com"},
		To: []model.Address{alice}, Subject: "in\u200bvoice\u00ad\U000E0041", Text: "pay\u2060 now\ufeff\n" + secret +
			"\nfamily 👨\u200d👩\u200d👧 می\u200cخواهم a\u2064\u2800b\ufe0f",
		Attachments: []Part{{Name: "a\U000E0041\u2061.pdf", Type: "application/pdf"}}}
	for _, d := range []Draft{Reply(o, self, false), Reply(o, self, true), Forward(o, self)} {
		if err := CheckDraftShowable(d); err != nil {
			t.Errorf("%v: %v", d.Kind, err)
		}
		for _, kept := range []string{"👨\u200d👩\u200d👧", "می\u200cخواهم", "Thanks, see you Monday.\n"} {
			if !strings.Contains(d.Body, kept) {
				t.Errorf("%v lost %q: %q", d.Kind, kept, d.Body)
			}
		}
	}
}

// The runes common() lets through without the property lookups are each
// one the full rule accepts on its own: assigned, neither a control, a
// format character, a mark nor default ignorable, and at least one column
// wide.
func TestCommonRunesPassTheFullRule(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !common(r) {
			continue
		}
		sc := newScanner(false)
		sc.prev, sc.base = 'a', 'a'
		if what, drawn := sc.what(r, 'a'); what != "" || !drawn || unicode.In(r, unicode.M, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point) {
			t.Errorf("common(%U), yet the rule says %q (drawn %v)", r, what, drawn)
		}
	}
}
