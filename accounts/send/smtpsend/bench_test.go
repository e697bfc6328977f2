package smtpsend_test

import (
	"testing"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/smtptest"
)

// BenchmarkSendLoopback is one whole submission on loopback (dial, EHLO,
// AUTH PLAIN, MAIL, RCPT, DATA, the 250, QUIT) into memimap's INBOX.
func BenchmarkSendLoopback(b *testing.B) {
	w := newWorld(b, smtptest.Options{})
	env, _ := w.envelope()
	for b.Loop() {
		if _, err := smtpsend.Send(b.Context(), w.server(), password("ann-pw"), env, smtpsend.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
