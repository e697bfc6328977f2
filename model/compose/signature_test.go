package compose

import (
	"testing"
	"time"

	"unibox/model"
)

// New, Reply and Forward sign under a "-- " line: at the end, or above
// what they quote; without a signature the body is what it always was.
func TestSigned(t *testing.T) {
	o := Original{From: bob, To: []model.Address{alice}, Subject: "lunch", Date: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC), Text: "noon?"}
	const attr = "On Mon, 2 Mar 2026 12:00 +0000, Bob wrote:\n> noon?\n"
	const fwd = "---------- Forwarded message ----------\nFrom: Bob <bob@example.com>\nDate: Mon, 2 Mar 2026 12:00 +0000\nSubject: lunch\nTo: Alice <alice@example.org>\n\nnoon?\n"
	below := Signature{Text: "Alice\nExample Corp\n"}
	above := Signature{Text: "Alice\nExample Corp", Above: true}
	for _, tc := range []struct {
		name string
		sig  Signature
		make func(Identity) Draft
		want string
	}{
		{"new, unsigned", Signature{}, New, ""},
		{"new", below, New, "\n\n-- \nAlice\nExample Corp\n"},
		{"new, above: nothing to be above", above, New, "\n\n-- \nAlice\nExample Corp\n"},
		{"reply, unsigned", Signature{}, func(s Identity) Draft { return Reply(o, s, false) }, "\n" + attr},
		{"reply, below the quote", below, func(s Identity) Draft { return Reply(o, s, false) }, "\n" + attr + "\n-- \nAlice\nExample Corp\n"},
		{"reply, above the quote", above, func(s Identity) Draft { return Reply(o, s, true) }, "\n\n-- \nAlice\nExample Corp\n\n" + attr},
		{"forward, unsigned", Signature{}, func(s Identity) Draft { return Forward(o, s) }, "\n\n" + fwd},
		{"forward, below the block", below, func(s Identity) Draft { return Forward(o, s) }, "\n\n" + fwd + "\n-- \nAlice\nExample Corp\n"},
		{"forward, above the block", above, func(s Identity) Draft { return Forward(o, s) }, "\n\n-- \nAlice\nExample Corp\n\n" + fwd},
		{"a blank signature signs nothing", Signature{Text: "\n\n"}, New, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := self
			id.Signature = tc.sig
			d := tc.make(id)
			if d.Body != tc.want {
				t.Fatalf("body:\n%q\nwant\n%q", d.Body, tc.want)
			}
			d.To = append(d.To, carol) // a forward's and a new message's are the person's to add
			back, err := Parse(d.Editable(), d)
			if err != nil || back.Body != d.Body || CheckDraftShowable(back) != nil {
				t.Fatalf("read back from the editor's text: %q, %v", back.Body, err)
			}
		})
	}
}

// An agent's text goes above the quote, and the signature follows it
// wherever the person's would go.
func TestSignedWritten(t *testing.T) {
	sig := Signature{Text: "Alice"}
	for _, tc := range []struct {
		name            string
		written, quoted string
		sig             Signature
		want            string
	}{
		{"unsigned, quoting", "Yes, noon.\n", "On ...:\n> noon?\n", Signature{}, "Yes, noon.\n\nOn ...:\n> noon?\n"},
		{"unsigned, alone", "Yes, noon.", "", Signature{}, "Yes, noon."},
		{"below the quote", "Yes, noon.\n", "On ...:\n> noon?\n", sig, "Yes, noon.\n\nOn ...:\n> noon?\n\n-- \nAlice\n"},
		{"above the quote", "Yes, noon.\n", "On ...:\n> noon?\n", Signature{Text: "Alice", Above: true}, "Yes, noon.\n\n-- \nAlice\n\nOn ...:\n> noon?\n"},
		{"no quote", "Yes, noon.\n\n", "", sig, "Yes, noon.\n\n-- \nAlice\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Signed(tc.written, tc.quoted, tc.sig); got != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
