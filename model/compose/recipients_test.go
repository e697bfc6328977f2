package compose

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"unibox/model"
)

// A prompt's line reads as the editor's line does, a completion's ", "
// at its end aside, and is refused as the review would refuse it.
func TestParseRecipientsAtAPrompt(t *testing.T) {
	jane := model.Address{Name: "Doe, Jane", Address: "jane@example.org"}
	for _, tc := range []struct {
		name, value string
		want        []model.Address
		err         string // a part of the error; "" none
		is          error
	}{
		{"empty", "  ", nil, "", nil},
		{"completion's tail", "bob@example.com, ", []model.Address{{Address: "bob@example.com"}}, "", nil},
		{"quoted name with a comma", `"Doe, Jane" <jane@example.org>, al@example.org,`, []model.Address{jane, {Address: "al@example.org"}}, "", nil},
		{"a name alone", "mom", nil, `To: an address does not parse: "mom"`, ErrBadAddress},
		{"second is bad", "bob@example.com, mom", nil, `"mom"`, ErrBadAddress},
		{"control", "bob@example.com\x1b[2J", nil, "To: ", ErrControl},
		{"zero-width in a name", "Mo\u200bm <mom@example.org>", nil, "to holds a zero-width", nil},
		{"bidi in a name", "\u202eMom <mom@example.org>", nil, "to holds a bidi control", nil},
		{"quoted local part", `" "@example.org`, nil, "quoted local part", ErrBadAddress},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRecipients("To", tc.value)
			if tc.err == "" {
				if err != nil || !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want one with %q (is %v)", err, tc.err, tc.is)
			}
		})
	}
}

// A contact is offered with its name cleaned as a name from mail is,
// its address never changed: what it inserts (FormatRecipients) reads
// back as exactly it.
func TestOffered(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   model.Address
		want model.Address
		ok   bool
	}{
		{"plain", model.Address{Name: "Mom", Address: "mom@family.test"}, model.Address{Name: "Mom", Address: "mom@family.test"}, true},
		{"no name", model.Address{Address: "ci@example.org"}, model.Address{Address: "ci@example.org"}, true},
		{"comma and quote", model.Address{Name: `Doe, "JD" Jane`, Address: "jane@example.org"}, model.Address{Name: `Doe, "JD" Jane`, Address: "jane@example.org"}, true},
		{"bidi name cleaned", model.Address{Name: "\u202eMom", Address: "mom@family.test"}, model.Address{Name: "Mom", Address: "mom@family.test"}, true},
		{"zero-width name cleaned", model.Address{Name: "Mo\u200bm", Address: "mom@family.test"}, model.Address{Name: "Mom", Address: "mom@family.test"}, true},
		{"escape in a name", model.Address{Name: "Bob\x1b[31m", Address: "bob@example.com"}, model.Address{Name: "Bob", Address: "bob@example.com"}, true},
		{"zero-width address", model.Address{Name: "Mom", Address: "mom\u200b@family.test"}, model.Address{}, false},
		{"address with a space", model.Address{Address: "a b@example.org"}, model.Address{}, false},
		{"no address", model.Address{Name: "Mom"}, model.Address{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Offered(tc.in)
			if ok != tc.ok || got != tc.want {
				t.Fatalf("Offered(%+v) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
			}
			if !ok {
				return
			}
			back, err := ParseRecipients("To", FormatRecipients([]model.Address{got}))
			if err != nil || len(back) != 1 || back[0] != got {
				t.Fatalf("%q reads back as %+v, %v", FormatRecipients([]model.Address{got}), back, err)
			}
		})
	}
}

// The review's edit_recipients replaces the To and Cc lines and nothing
// else: the other lines, their line ends, a "To:" in the body stay.
func TestWithRecipients(t *testing.T) {
	to := []model.Address{{Name: "Doe, Jane", Address: "jane@example.org"}, {Address: "al@example.org"}}
	cc := []model.Address{{Name: "Bob", Address: "bob@example.com"}}
	for _, tc := range []struct{ name, text, want string }{
		{"both lines",
			"From: Sam <sam@example.com>\nTo: old@example.com\nCc: \nBcc: \nSubject: hi\n\nTo: stays in the body\n",
			"From: Sam <sam@example.com>\nTo: \"Doe, Jane\" <jane@example.org>, al@example.org\nCc: Bob <bob@example.com>\nBcc: \nSubject: hi\n\nTo: stays in the body\n"},
		{"CRLF and case",
			"from: s@example.com\r\nto: x@example.com\r\nCC: y@example.com\r\n\r\nbody\r\n",
			"from: s@example.com\r\nTo: \"Doe, Jane\" <jane@example.org>, al@example.org\r\nCc: Bob <bob@example.com>\r\n\r\nbody\r\n"},
		{"no Cc line",
			"From: s@example.com\nTo: x@example.com\nSubject: s\n\nbody",
			"From: s@example.com\nTo: \"Doe, Jane\" <jane@example.org>, al@example.org\nSubject: s\nCc: Bob <bob@example.com>\n\nbody"},
		{"no blank line",
			"To: x@example.com",
			"To: \"Doe, Jane\" <jane@example.org>, al@example.org\nCc: Bob <bob@example.com>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WithRecipients(tc.text, to, cc); got != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
	// What it writes, Parse reads back.
	d, err := Parse(WithRecipients(New(self).Editable(), to, cc), Draft{})
	if err != nil || !reflect.DeepEqual(d.To, to) || !reflect.DeepEqual(d.Cc, cc) {
		t.Fatalf("read back: %+v %+v, %v", d.To, d.Cc, err)
	}
}
