package subject

import "testing"

// Base is what subject grouping compares: prefixes in any language and
// case gone, white space and case folded; a subject that is only prefixes
// is empty (and so never grouped).
func TestBase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Lunch", "lunch"},
		{"RE:  Lunch ", "lunch"},
		{"Re[2]: AW: Fwd: lunch   plans", "lunch plans"},
		{"回复：午饭", "午饭"},
		{"Re: [list] Re: lunch", "[list] re: lunch"},
		{"Ref: invoice", "ref: invoice"},
		{"Re:", ""},
		{"", ""},
		{"lunch\r\nBcc: x", "lunch bcc: x"},
	} {
		if got := Base(tc.in); got != tc.want {
			t.Errorf("Base(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
