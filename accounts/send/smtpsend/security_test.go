package smtpsend_test

import (
	"errors"
	"testing"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/smtptest"
)

// Setups that would send credentials or mail in the clear, or to a
// server nobody vouches for, are refused (class config) and never retried.
func TestSecurityRefusals(t *testing.T) {
	ca := imaptest.NewCA(t)
	for _, tc := range []struct {
		name  string
		opts  smtptest.Options
		edit  func(*smtpsend.Server)
		stage smtpsend.Stage
		says  []string
		mails int
	}{
		// No dial: a dial to the unresolvable name would fail at connect, not be refused.
		{"none to a remote host", smtptest.Options{}, func(s *smtpsend.Server) { s.Host = "smtp.invalid" },
			smtpsend.StageConnect, []string{"plaintext", "smtp.invalid", "allow_plaintext"}, 0},
		{"none to a remote address", smtptest.Options{}, func(s *smtpsend.Server) { s.Host = "192.0.2.1" },
			smtpsend.StageConnect, []string{"plaintext", "192.0.2.1"}, 0},
		{"starttls not offered", smtptest.Options{}, func(s *smtpsend.Server) { s.Security = "starttls" },
			smtpsend.StageTLS, []string{"does not offer STARTTLS"}, 0},
		{"certificate of an unknown CA", smtptest.Options{TLS: ca.Server, Implicit: true}, func(s *smtpsend.Server) { s.Security = "tls" },
			smtpsend.StageTLS, []string{"not trusted", "tls_ca_file"}, 0},
		{"unknown security", smtptest.Options{}, func(s *smtpsend.Server) { s.Security = "ssl" },
			smtpsend.StageConnect, []string{"smtp_security", "ssl"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.opts)
			srv := w.server()
			tc.edit(&srv)
			env, _ := w.envelope()
			_, err := smtpsend.Send(ctx(t), srv, password("ann-pw"), env, smtpsend.Options{})
			e := sendErr(t, err)
			if !errors.Is(err, smtpsend.ErrRefused) || e.Stage != tc.stage || smtpsend.Class(err) != "config" {
				t.Fatalf("got %v (stage %s, class %s), want refused at %s, class config", err, e.Stage, smtpsend.Class(err), tc.stage)
			}
			mustContain(t, err.Error(), tc.says...)
			if w.srv.MailCommands() != tc.mails {
				t.Fatalf("%d MAIL commands", w.srv.MailCommands())
			}
		})
	}
}

// allow_plaintext lets security none reach a host that is not a loopback
// literal ("localhost" is one by name); here it still only dials loopback.
func TestAllowPlaintext(t *testing.T) {
	w := newWorld(t, smtptest.Options{})
	srv := w.server()
	srv.Host = "localhost"
	env, marker := w.envelope()
	if _, err := smtpsend.Send(ctx(t), srv, password("ann-pw"), env, smtpsend.Options{}); err != nil {
		t.Fatalf("send to localhost: %v", err)
	}
	if w.copies(t, marker) != 1 {
		t.Fatal("not delivered")
	}
}
