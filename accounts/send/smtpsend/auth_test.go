package smtpsend_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/smtptest"
)

// A wrong password is ErrAuth (class auth) at once: asking for the
// password again would give the same one.
func TestWrongPassword(t *testing.T) {
	w := newWorld(t, smtptest.Options{})
	s := &secrets{give: func(bool) string { return "not-ann-pw" }}
	env, _ := w.envelope()
	_, err := smtpsend.Send(ctx(t), w.server(), s.get, env, smtpsend.Options{})
	e := sendErr(t, err)
	if !errors.Is(err, smtpsend.ErrAuth) || !errors.Is(err, smtpsend.ErrRefused) || e.Stage != smtpsend.StageAuth || e.Code != 535 {
		t.Fatalf("got %v (stage %s, code %d), want ErrAuth refused at auth with 535", err, e.Stage, e.Code)
	}
	if c := smtpsend.Class(err); c != "auth" {
		t.Errorf("class %q, want auth", c)
	}
	if got := s.Calls(); !slices.Equal(got, []bool{false}) {
		t.Errorf("secret calls %v, want one, not fresh", got)
	}
	if w.srv.MailCommands() != 0 {
		t.Error("MAIL was sent after a refused login")
	}
}

// An expired token gets one fresh token and one more try; a fresh token
// refused too is ErrAuth, with no third try.
func TestTokenRefreshedOnce(t *testing.T) {
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		for _, freshWorks := range []bool{true, false} {
			name := mech + map[bool]string{true: ", fresh token works", false: ", fresh token refused too"}[freshWorks]
			t.Run(name, func(t *testing.T) {
				is := imaptest.NewIssuer(t)
				w := newWorld(t, smtptest.Options{Tokens: is.Valid})
				stale := is.Mint("ann")
				is.ExpireAll()
				s := &secrets{give: func(fresh bool) string {
					if fresh && freshWorks {
						return is.Mint("ann")
					}
					return stale
				}}
				srv := w.server()
				srv.SASL = mech
				env, marker := w.envelope()
				_, err := smtpsend.Send(ctx(t), srv, s.get, env, smtpsend.Options{})
				if got := s.Calls(); !slices.Equal(got, []bool{false, true}) {
					t.Errorf("secret calls %v, want [false true]", got)
				}
				if freshWorks {
					if err != nil {
						t.Fatalf("send with the fresh token: %v", err)
					}
					if n := w.copies(t, marker); n != 1 {
						t.Fatalf("%d copies, want 1", n)
					}
					return
				}
				if !errors.Is(err, smtpsend.ErrAuth) || smtpsend.Class(err) != "auth" {
					t.Fatalf("got %v (class %s), want ErrAuth", err, smtpsend.Class(err))
				}
				if w.srv.MailCommands() != 0 {
					t.Error("MAIL was sent after refused logins")
				}
			})
		}
	}
}

// A server that quotes the refused secret back never gets it into the
// error text.
func TestSecretNeverInError(t *testing.T) {
	const pw = "hunter2-s3cret-pw"
	for _, tc := range []struct{ name, sasl string }{{"password", ""}, {"xoauth2", "xoauth2"}, {"oauthbearer", "oauthbearer"}} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, smtptest.Options{Users: map[string]string{"ann": "ann-pw"}, Tokens: func(string, string) bool { return false }})
			w.srv.EchoSecrets(true)
			srv := w.server()
			srv.SASL = tc.sasl
			env, _ := w.envelope()
			_, err := smtpsend.Send(ctx(t), srv, password(pw), env, smtpsend.Options{})
			if !errors.Is(err, smtpsend.ErrAuth) {
				t.Fatalf("got %v, want ErrAuth", err)
			}
			if strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "[secret]") {
				t.Fatalf("error text %q: the echoed secret is not scrubbed", err)
			}
			var walk func(error)
			walk = func(cause error) { // every wrapped cause, %w lists included
				if cause == nil {
					return
				}
				if strings.Contains(cause.Error(), pw) {
					t.Fatalf("a wrapped cause holds the secret: %q", cause)
				}
				switch u := cause.(type) {
				case interface{ Unwrap() error }:
					walk(u.Unwrap())
				case interface{ Unwrap() []error }:
					for _, c := range u.Unwrap() {
						walk(c)
					}
				}
			}
			walk(err)
		})
	}
}

// A login configured for a server that offers no AUTH (a relay port, not
// submission) is refused before MAIL: mail is never sent unauthenticated
// in its place.
func TestNoAuthOffered(t *testing.T) {
	srv, err := smtptest.Start(smtptest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	env := smtpsend.Envelope{From: "ann@example.org", Rcpt: []string{"bob@example.org"}, Data: []byte("Subject: x\r\n\r\nx\r\n")}
	s := smtpsend.Server{Host: srv.Host(), Port: srv.Port(), Security: "none", Username: "ann"}
	_, err = smtpsend.Send(ctx(t), s, password("ann-pw"), env, smtpsend.Options{})
	e := sendErr(t, err)
	if !errors.Is(err, smtpsend.ErrRefused) || e.Stage != smtpsend.StageAuth || smtpsend.Class(err) != "config" {
		t.Fatalf("got %v (stage %s, class %s), want refused at auth, class config", err, e.Stage, smtpsend.Class(err))
	}
	mustContain(t, err.Error(), "offers no AUTH")
	if srv.MailCommands() != 0 || srv.Deliveries() != 0 {
		t.Fatal("sent without the login")
	}
}
