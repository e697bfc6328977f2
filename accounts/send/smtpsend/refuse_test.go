package smtpsend_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/smtptest"
)

// A 4xx before the body is retried and the next try delivers, once; an
// Unknown or Refused failure is never tried again.
func TestSendRetrying(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fault     func(*smtptest.Server)
		want      error // nil: sent
		mails     int   // MAIL commands the server saw
		delivered int
	}{
		{"4xx at RCPT, then sent", func(s *smtptest.Server) { s.FailAt("rcpt", 450) }, nil, 2, 1},
		{"cut at MAIL twice, then sent", func(s *smtptest.Server) { s.CutAtMail(2) }, nil, 3, 1},
		{"cut after the dot: never again", func(s *smtptest.Server) { s.CutAfterDot(1) }, smtpsend.ErrUnknown, 1, 1},
		{"5xx at MAIL: never again", func(s *smtptest.Server) { s.FailAt("mail", 550) }, smtpsend.ErrRefused, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, smtptest.Options{})
			tc.fault(w.srv)
			env, marker := w.envelope()
			var waits []int
			r, err := smtpsend.SendRetrying(ctx(t), w.server(), password("ann-pw"), env, smtpsend.Options{}, 5,
				func(n int) time.Duration { waits = append(waits, n); return time.Millisecond })
			if tc.want == nil && (err != nil || !strings.HasPrefix(r.Reply, "250 ")) {
				t.Fatalf("send: %v, receipt %q", err, r.Reply)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if got := w.srv.MailCommands(); got != tc.mails || len(waits) != tc.mails-1 {
				t.Errorf("%d MAIL commands and %d backoffs, want %d tries", got, len(waits), tc.mails)
			}
			if n := w.copies(t, marker); n != tc.delivered || w.srv.Deliveries() != tc.delivered {
				t.Fatalf("%d copies in INBOX, %d deliveries; want %d", n, w.srv.Deliveries(), tc.delivered)
			}
		})
	}
}

// A recipient refused at RCPT is named, and the transaction is reset:
// the recipients accepted before it get nothing either.
func TestRecipientRefusedSendsToNobody(t *testing.T) {
	w := newWorld(t, smtptest.Options{})
	w.srv.RejectRcpt("nobody@example.org", true)
	env, marker := w.envelope("nobody@example.org")
	_, err := smtpsend.Send(ctx(t), w.server(), password("ann-pw"), env, smtpsend.Options{})
	e := sendErr(t, err)
	if !errors.Is(err, smtpsend.ErrRefused) || e.Stage != smtpsend.StageRcpt || e.Code != 550 || e.Recipient != "nobody@example.org" {
		t.Fatalf("got %v (stage %s, code %d, recipient %q), want 550 refused at rcpt for nobody@example.org", err, e.Stage, e.Code, e.Recipient)
	}
	mustContain(t, err.Error(), "nobody@example.org")
	if n := w.copies(t, marker); n != 0 || w.srv.Deliveries() != 0 || w.srv.BodiesStarted() != 0 {
		t.Fatalf("%d copies, %d deliveries, %d bodies: the accepted recipient got it", n, w.srv.Deliveries(), w.srv.BodiesStarted())
	}
}

// A message over the SIZE the server advertises is refused before MAIL,
// with the limit in the error; one under it is sent (and MAIL says SIZE).
func TestSizeLimit(t *testing.T) {
	w := newWorld(t, smtptest.Options{MaxSize: 300})
	env, _ := w.envelope()
	env.Data = append(env.Data, []byte(strings.Repeat("x", 400)+"\r\n")...)
	_, err := smtpsend.Send(ctx(t), w.server(), password("ann-pw"), env, smtpsend.Options{})
	e := sendErr(t, err)
	if !errors.Is(err, smtpsend.ErrRefused) || e.Stage != smtpsend.StageMail {
		t.Fatalf("got %v, want refused at mail", err)
	}
	mustContain(t, err.Error(), "SIZE", "300")
	if w.srv.MailCommands() != 0 {
		t.Fatalf("%d MAIL commands: the limit was not checked before MAIL", w.srv.MailCommands())
	}
	want := smtpsend.Size{Announced: true, Limit: 300}
	if got := smtpsend.SizeOf(smtpsend.Receipt{}, err); got != want {
		t.Errorf("the refusal says SIZE %+v, want %+v", got, want)
	}
	small, marker := w.envelope()
	rec, err := smtpsend.Send(ctx(t), w.server(), password("ann-pw"), small, smtpsend.Options{})
	if err != nil {
		t.Fatalf("a message under the limit: %v", err)
	}
	if n := w.copies(t, marker); n != 1 {
		t.Fatalf("%d copies of the small message", n)
	}
	if got := smtpsend.SizeOf(rec, nil); got != want {
		t.Errorf("the receipt says SIZE %+v, want %+v", got, want)
	}
}

// A bare SIZE (what a server with no fixed limit says) is announced with
// no limit; a failure before EHLO announces nothing.
func TestSizeAnnounced(t *testing.T) {
	w := newWorld(t, smtptest.Options{})
	env, _ := w.envelope()
	rec, err := smtpsend.Send(ctx(t), w.server(), password("ann-pw"), env, smtpsend.Options{})
	if got := smtpsend.SizeOf(rec, err); err != nil || got != (smtpsend.Size{Announced: true}) {
		t.Errorf("bare SIZE: %+v, %v; want announced, no limit", got, err)
	}
	srv := w.server()
	srv.Port = 1 // nothing listens there
	_, err = smtpsend.Send(ctx(t), srv, password("ann-pw"), env, smtpsend.Options{})
	if got := smtpsend.SizeOf(smtpsend.Receipt{}, err); err == nil || got.Announced {
		t.Errorf("no connection: %+v, %v; want nothing announced", got, err)
	}
}
