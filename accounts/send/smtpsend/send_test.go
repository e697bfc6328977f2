package smtpsend_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/smtptest"
)

// A message sent lands once in the recipient's INBOX (read over IMAP),
// whatever the transport security and login, and the receipt is the
// server's answer to the final dot.
func TestSentOnce(t *testing.T) {
	ca := imaptest.NewCA(t)
	for _, tc := range []struct {
		name, security, sasl string
		opts                 smtptest.Options
	}{
		{"none, plain", "none", "", smtptest.Options{}},
		{"login, where PLAIN is not offered", "none", "", smtptest.Options{LoginMech: true}},
		{"implicit tls", "tls", "", smtptest.Options{TLS: ca.Server, Implicit: true}},
		{"starttls", "starttls", "", smtptest.Options{TLS: ca.Server}},
		{"xoauth2", "tls", "xoauth2", smtptest.Options{TLS: ca.Server, Implicit: true}},
		{"oauthbearer", "starttls", "oauthbearer", smtptest.Options{TLS: ca.Server}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			secret := password("ann-pw")
			if tc.sasl != "" {
				is := imaptest.NewIssuer(t)
				tc.opts.Tokens = is.Valid
				secret = password(is.Mint("ann"))
			}
			w := newWorld(t, tc.opts)
			srv := w.server()
			srv.Security, srv.SASL, srv.TLSCAPEM = tc.security, tc.sasl, ca.PEM
			env, marker := w.envelope()
			r, err := smtpsend.Send(ctx(t), srv, secret, env, smtpsend.Options{})
			if err != nil {
				t.Fatalf("send: %v", err)
			}
			if !strings.HasPrefix(r.Reply, "250 ") {
				t.Errorf("receipt %q, want the 250 line", r.Reply)
			}
			if n := w.copies(t, marker); n != 1 || w.srv.Deliveries() != 1 {
				t.Fatalf("%d copies in INBOX, %d deliveries; want exactly 1", n, w.srv.Deliveries())
			}
		})
	}
}

// Each boundary of the at-most-once rule, with a server that fails there:
// before the body nothing is delivered and the message may go again;
// after the dot without an answer the outcome is unknown, though the
// message was delivered exactly once.
func TestBoundaries(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fault     func(*smtptest.Server)
		opts      smtpsend.Options
		want      error
		stage     smtpsend.Stage
		code      int
		delivered int
		class     string
	}{
		{"cut at MAIL", func(s *smtptest.Server) { s.CutAtMail(1) }, smtpsend.Options{}, smtpsend.ErrNotSent, smtpsend.StageMail, 0, 0, "unavailable"},
		{"cut after RCPT", func(s *smtptest.Server) { s.CutAtData(1) }, smtpsend.Options{}, smtpsend.ErrNotSent, smtpsend.StageData, 0, 0, "unavailable"},
		{"4xx at AUTH", func(s *smtptest.Server) { s.FailAt("auth", 454) }, smtpsend.Options{}, smtpsend.ErrNotSent, smtpsend.StageAuth, 454, 0, "unavailable"},
		{"4xx at MAIL", func(s *smtptest.Server) { s.FailAt("mail", 451) }, smtpsend.Options{}, smtpsend.ErrNotSent, smtpsend.StageMail, 451, 0, "unavailable"},
		{"4xx at RCPT", func(s *smtptest.Server) { s.FailAt("rcpt", 450) }, smtpsend.Options{}, smtpsend.ErrNotSent, smtpsend.StageRcpt, 450, 0, "unavailable"},
		{"5xx at MAIL", func(s *smtptest.Server) { s.FailAt("mail", 550) }, smtpsend.Options{}, smtpsend.ErrRefused, smtpsend.StageMail, 550, 0, "tool"},
		{"4xx at the dot", func(s *smtptest.Server) { s.FailAt("dot", 451) }, smtpsend.Options{}, smtpsend.ErrNotSent, smtpsend.StageDot, 451, 0, "unavailable"},
		{"5xx at the dot", func(s *smtptest.Server) { s.FailAt("dot", 554) }, smtpsend.Options{}, smtpsend.ErrRefused, smtpsend.StageDot, 554, 0, "tool"},
		{"delivered, cut after the dot", func(s *smtptest.Server) { s.CutAfterDot(1) }, smtpsend.Options{}, smtpsend.ErrUnknown, smtpsend.StageDot, 0, 1, "unavailable"},
		{"delivered, no answer to the dot", func(s *smtptest.Server) { s.HangAfterDot(1, true) },
			smtpsend.Options{ReplyTimeout: 300 * time.Millisecond}, smtpsend.ErrUnknown, smtpsend.StageDot, 0, 1, "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, smtptest.Options{})
			tc.fault(w.srv)
			env, marker := w.envelope()
			_, err := smtpsend.Send(ctx(t), w.server(), password("ann-pw"), env, tc.opts)
			e := sendErr(t, err)
			if !errors.Is(err, tc.want) || e.Stage != tc.stage || e.Code != tc.code {
				t.Fatalf("got %v (stage %s, code %d), want %v at %s, code %d", err, e.Stage, e.Code, tc.want, tc.stage, tc.code)
			}
			if c := smtpsend.Class(err); c != tc.class {
				t.Errorf("class %q, want %q", c, tc.class)
			}
			if err := w.srv.AwaitDeliveries(ctx(t), tc.delivered); err != nil {
				t.Fatal(err)
			}
			if n := w.copies(t, marker); n != tc.delivered || w.srv.Deliveries() != tc.delivered {
				t.Fatalf("%d copies in INBOX, %d deliveries; want %d", n, w.srv.Deliveries(), tc.delivered)
			}
			if tc.want == smtpsend.ErrUnknown {
				mustContain(t, err.Error(), "may have been sent")
			}
		})
	}
}
