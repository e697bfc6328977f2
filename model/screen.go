package model

// Screen is where the screener (issue 40) puts a message of an account
// that has one: in the inbox, or waiting for the person's decision on its
// sender. Only INBOX mail is ever screened; the mail stays on the server
// as it is, only unibox's views hide it.
type Screen uint8

const (
	ScreenNone   Screen = iota // in the inbox
	ScreenNew                  // from a sender never let in and never written to
	ScreenForged               // its From fails DMARC at the person's server: screened however known the address
	ScreenOut                  // from a sender (or domain) screened out: leaving for screen_out
)

var screenNames = [...]string{"", "new_sender", "dmarc_fail", "screened_out"}

// String is the state's name as faces print it ("" in the inbox).
func (s Screen) String() string {
	if int(s) < len(screenNames) {
		return screenNames[s]
	}
	return "unknown"
}
