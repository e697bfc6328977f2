package compose

import "testing"

// Exactly one "Re:" or "Fwd:": known prefixes, in any case, with counters
// and in other languages, are taken off first; the rest stays as it is.
func TestSubjectPrefixes(t *testing.T) {
	for _, tc := range []struct{ in, reply, forward string }{
		{"hello", "Re: hello", "Fwd: hello"},
		{"Re: hello", "Re: hello", "Fwd: hello"},
		{"RE: hello", "Re: hello", "Fwd: hello"},
		{"re: Re: RE: hello", "Re: hello", "Fwd: hello"},
		{"Re[2]: hello", "Re: hello", "Fwd: hello"},
		{"Re(3): hello", "Re: hello", "Fwd: hello"},
		{"Re : hello", "Re: hello", "Fwd: hello"},
		{"AW: hello", "Re: hello", "Fwd: hello"},
		{"SV: hello", "Re: hello", "Fwd: hello"},
		{"Antw: hello", "Re: hello", "Fwd: hello"},
		{"Fw: hello", "Re: hello", "Fwd: hello"},
		{"FWD: Fwd: hello", "Re: hello", "Fwd: hello"},
		{"WG: AW: hello", "Re: hello", "Fwd: hello"},
		{"回复：你好", "Re: 你好", "Fwd: 你好"},
		// Not prefixes: kept as written.
		{"Re: [list] Re: hello", "Re: [list] Re: hello", "Fwd: [list] Re: hello"},
		{"Reply needed: now", "Re: Reply needed: now", "Fwd: Reply needed: now"},
		{"Ref: invoice 12", "Re: Ref: invoice 12", "Fwd: Ref: invoice 12"},
		{"Re[x]: odd", "Re: Re[x]: odd", "Fwd: Re[x]: odd"},
		{"Re[2: odd", "Re: Re[2: odd", "Fwd: Re[2: odd"},
		{"Meeting: Re-planning", "Re: Meeting: Re-planning", "Fwd: Meeting: Re-planning"},
		// Empty, and mail's controls taken out.
		{"", "Re:", "Fwd:"},
		{"Re:", "Re:", "Fwd:"},
		{"  hello   world ", "Re: hello world", "Fwd: hello world"},
		{"hi\r\nBcc: evil@x", "Re: hi Bcc: evil@x", "Fwd: hi Bcc: evil@x"},
		{"a\x1b[2Jb", "Re: ab", "Fwd: ab"},
	} {
		if got := replySubject(tc.in); got != tc.reply {
			t.Errorf("replySubject(%q) = %q, want %q", tc.in, got, tc.reply)
		}
		if got := forwardSubject(tc.in); got != tc.forward {
			t.Errorf("forwardSubject(%q) = %q, want %q", tc.in, got, tc.forward)
		}
	}
}
