package drafting

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/compose"
)

// TestAgentDraftRefusals: every refused input is refused before anything
// is written or filed, with an error naming the field.
func TestAgentDraftRefusals(t *testing.T) {
	many := make([]string, 51)
	for i := range many {
		many[i] = "p@example.org"
	}
	tests := []struct {
		name          string
		to, cc        []string
		subject, body string
		field         string // the error begins with it
		is            error
	}{
		{"control in body", []string{"a@example.org"}, nil, "hi", "bell\x07", "body: holds a control character (U+0007)", ErrRefused},
		{"lone CR in body", []string{"a@example.org"}, nil, "hi", "one\rtwo", "body: holds a lone CR", ErrRefused},
		{"bidi in body", []string{"a@example.org"}, nil, "hi", "pay \u202etxt.exe", "body: holds a bidi control (U+202E)", ErrRefused},
		{"LRM in body", []string{"a@example.org"}, nil, "hi", "x\u200ey", "body: holds a bidi control (U+200E)", ErrRefused},
		{"ALM in body", []string{"a@example.org"}, nil, "hi", "x\u061cy", "body: holds a bidi control (U+061C)", ErrRefused},
		{"isolate in subject", []string{"a@example.org"}, nil, "a\u2066b", "x", "subject: holds a bidi control (U+2066)", ErrRefused},
		{"zero width in body", []string{"a@example.org"}, nil, "hi", "in\u200bvoice", "body: holds a zero-width character (U+200B)", ErrRefused},
		{"BOM in subject", []string{"a@example.org"}, nil, "\ufeffhi", "x", "subject: holds a zero-width character (U+FEFF)", ErrRefused},
		{"word joiner in address", []string{"a\u2060@example.org"}, nil, "hi", "x", "to[0]: holds a zero-width character (U+2060)", ErrRefused},
		{"tag-encoded secret in body", []string{"a@example.org"}, nil, "hi", "Thanks, see you Monday.\U000E0070\U000E0077", "body: holds a tag character (U+E0070): it is not drawn", ErrRefused},
		{"variation selector in subject", []string{"a@example.org"}, nil, "a\ufe0fb", "x", "subject: holds a variation selector outside an emoji sequence (U+FE0F)", ErrRefused},
		{"hangul filler in a name", []string{"\u3164 <a@example.org>"}, nil, "hi", "x", "to[0]: holds a blank character that draws nothing", ErrRefused},
		{"invisible plus in body", []string{"a@example.org"}, nil, "hi", "1\u2064", "body: holds an invisible format character (U+2064)", ErrRefused},
		{"unassigned in body", []string{"a@example.org"}, nil, "hi", "\u0378", "body: holds a code point not assigned in Unicode 15", ErrRefused},
		{"LF in subject", []string{"a@example.org"}, nil, "hi\nBcc: x@evil.example", "x", "subject: holds a line break (U+000A)", ErrRefused},
		{"CR in address", []string{"a@example.org\r"}, nil, "hi", "x", "to[0]: holds a line break (U+000D)", ErrRefused},
		{"tab in subject", []string{"a@example.org"}, nil, "a\tb", "x", "subject: holds a control character (U+0009)", ErrRefused},
		{"ESC in cc name", []string{"a@example.org"}, []string{"\x1b[2J Eve <e@example.org>"}, "hi", "x", "cc[0]: holds a control character (U+001B)", ErrRefused},
		{"encoded control in a name", []string{"=?utf-8?q?A=0D=0AB?= <a@example.org>"}, nil, "hi", "x", "to[0]: holds a line break", ErrRefused},
		{"address does not parse", []string{"a@example.org", "not an address"}, nil, "hi", "x", "to[1]: \"not an address\" is not an address", ErrRefused},
		{"no recipient", nil, nil, "hi", "x", "to: no recipient", ErrRefused},
		{"too many recipients", many[:30], many[:21], "hi", "x", "to and cc: 51 addresses, over the limit of 50", model.ErrTooLarge},
		{"subject too long", []string{"a@example.org"}, nil, strings.Repeat("s", 999), "x", "subject: 999 bytes, over the limit of 998", model.ErrTooLarge},
		{"body too long", []string{"a@example.org"}, nil, "hi", strings.Repeat("b", 256<<10+1), "body: 262145 bytes, over the limit of 262144", model.ErrTooLarge},
		{"invalid UTF-8", []string{"a@example.org"}, nil, "hi", "\xff", "body: is not valid UTF-8", ErrRefused},
	}
	w := openWriter(t, "", DefaultMaxPerHour)
	f := newFolder("Work")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := w.New(context.Background(), f, tt.to, tt.cc, tt.subject, tt.body, time.Second)
			if err == nil || !strings.HasPrefix(err.Error(), tt.field) || !errors.Is(err, tt.is) {
				t.Fatalf("got %v\nwant %s... (%v)", err, tt.field, tt.is)
			}
			if f.count() != 0 {
				t.Fatal("a refused draft reached the Drafts folder")
			}
			if ds, _ := w.box.Drafts(); len(ds) != 0 {
				t.Fatalf("a refused draft was written locally: %+v", ds)
			}
		})
	}
}

// TestAgentDraftAccepted: what is fine in a body (tabs, newlines, CRLF,
// non-ASCII text) is kept, CRLF as LF, the same bytes a person reviews.
func TestAgentDraftAccepted(t *testing.T) {
	w := openWriter(t, "", DefaultMaxPerHour)
	f := newFolder("Work")
	body := "Grüße,\r\n\tindented\nend 👨\u200d👩\u200d👧 ❤\ufe0f می\u200cخواهم क्\u200dष"
	m, err := w.New(context.Background(), f, []string{"Ann <ann@example.org>", "bob@example.org"}, []string{"cc@example.org"}, "Plans für Montag", body, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := w.box.Draft(m.Draft.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(text), "\n\nGrüße,\n\tindented\nend 👨\u200d👩\u200d👧 ❤\ufe0f می\u200cخواهم क्\u200dष") || !strings.Contains(string(text), "Subject: Plans für Montag\n") {
		t.Fatalf("text:\n%s", text)
	}
	if f.count() != 1 || m.Draft.ServerDraft == nil || m.Draft.ServerDraft.UID != m.SavedTo.UID || m.Draft.ServerDraft.MessageID != m.MessageID {
		t.Fatalf("made %+v, server holds %d", m, f.count())
	}
	if len(f.events) != 1 || !strings.HasPrefix(f.events[0], `agent created "Plans für Montag" to ann@example.org, bob@example.org, cc@example.org`) {
		t.Fatalf("events %q", f.events)
	}
}

// A reply to a mail whose subject, names and text hold zero-width or
// bidi characters is drafted without them (they are the stranger's, not
// the agent's): the draft a person reviews is the one filed.
func TestReplyDropsInvisibleFromTheOriginal(t *testing.T) {
	w := openWriter(t, "", DefaultMaxPerHour)
	f := newFolder("Work")
	orig := model.Body{Message: model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 9}, MessageID: "x@example.com",
		From: model.Address{Name: "B\u200dob\u202e", Address: "bob@example.com"}, Subject: "in\u200bvoice\ufeff"}, Text: "pay\u2060 now\u200e"}
	m, err := w.Reply(context.Background(), f, orig, "Looking.", false, true, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, text, _ := w.box.Draft(m.Draft.ID)
	if strings.ContainsAny(string(text), "\u200b\u200c\u200d\u2060\ufeff\u200e\u202e") || !strings.Contains(string(text), "Subject: Re: invoice\n") ||
		!strings.Contains(string(text), "> pay now") || !strings.Contains(string(text), "To: Bob <bob@example.com>") {
		t.Fatalf("text:\n%q", text)
	}
	if _, err := w.Reply(context.Background(), f, orig, "mine\u200b", false, true, time.Second); err == nil || !strings.HasPrefix(err.Error(), "body: holds a zero-width") {
		t.Fatalf("the agent's own zero-width character: %v", err)
	}
}

// A draft an agent files carries no file from this computer: an Attach
// line, or a part read from a path, is refused naming the field; a
// forward's parts (from mail, no path) are not files of this computer.
func TestCheckDraftRefusesLocalFiles(t *testing.T) {
	to := []model.Address{{Address: "a@example.org"}}
	for _, tc := range []struct {
		name string
		d    compose.Draft
		bad  bool
	}{
		{"an Attach line", compose.Draft{To: to, Attach: []string{"~/.ssh/id_ed25519"}}, true},
		{"a part from a path", compose.Draft{To: to, Attachments: []compose.Part{{Name: "id", Data: []byte("k"), Path: "/root/id"}}}, true},
		{"a part from mail", compose.Draft{To: to, Attachments: []compose.Part{{Name: "a.pdf", Data: []byte("%PDF")}}}, false},
	} {
		err := CheckDraft(tc.d)
		var fe *FieldError
		if got := errors.As(err, &fe) && fe.Field == "attach"; got != tc.bad {
			t.Errorf("%s: err = %v, want refused on attach: %v", tc.name, err, tc.bad)
		}
	}
}
