package smtptest

import (
	"errors"
	"io"
	"strings"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"unibox/accounts/saslauth"
)

// session is one SMTP session (a STARTTLS connection has two: go-smtp
// starts over after the handshake).
type session struct {
	s      *Server
	c      *smtp.Conn
	authed bool
	from   string
	rcpt   []string
}

func (s *Server) newSession(c *smtp.Conn) (smtp.Session, error) {
	s.sessions.Add(1)
	return &session{s: s, c: c}, nil
}

func (ss *session) Reset()        { ss.from, ss.rcpt = "", nil }
func (ss *session) Logout() error { return nil }

// cut hangs up this session's connection.
func (ss *session) cut() {
	if tc := ss.s.conn(ss.c); tc != nil {
		_ = tc.Close()
		return
	}
	_ = ss.c.Conn().Close()
}

func (ss *session) AuthMechanisms() []string {
	var m []string
	switch {
	case ss.s.opts.Users != nil && ss.s.opts.LoginMech:
		m = append(m, sasl.Login)
	case ss.s.opts.Users != nil:
		m = append(m, sasl.Plain)
	}
	if ss.s.opts.Tokens != nil {
		m = append(m, saslauth.XOAuth2, saslauth.OAuthBearer)
	}
	return m
}

func (ss *session) Auth(mech string) (sasl.Server, error) {
	if err := ss.s.failure("auth"); err != nil {
		return nil, err
	}
	end := &authEnd{ss: ss}
	tokens := ss.s.opts.Tokens
	switch {
	case mech == sasl.Login && ss.s.opts.Users != nil && ss.s.opts.LoginMech:
		end.Server = &loginServer{check: func(user, pass string) error {
			if want, ok := ss.s.opts.Users[user]; ok && want == pass {
				ss.authed = true
				return nil
			}
			end.secret = pass
			return smtp.ErrAuthFailed
		}}
	case mech == sasl.Plain && ss.s.opts.Users != nil && !ss.s.opts.LoginMech:
		end.Server = sasl.NewPlainServer(func(identity, user, pass string) error {
			if want, ok := ss.s.opts.Users[user]; ok && want == pass && (identity == "" || identity == user) {
				ss.authed = true
				return nil
			}
			end.secret = pass
			return smtp.ErrAuthFailed
		})
	case mech == saslauth.XOAuth2 && tokens != nil:
		end.Server = saslauth.NewXOAuth2Server(func(user, token string) bool {
			end.secret = token
			ss.authed = tokens(user, token)
			return ss.authed
		}, smtp.ErrAuthFailed)
	case mech == saslauth.OAuthBearer && tokens != nil:
		end.Server = sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			end.secret = o.Token
			if ss.authed = tokens(o.Username, o.Token); ss.authed {
				return nil
			}
			return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
		})
	default:
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return end, nil
}

// authEnd ends every refusal with 535, as real servers do (go-smtp would
// answer 454, "try later", to a plain error), and quotes the secret it was
// given when the test asked for that carelessness.
type authEnd struct {
	sasl.Server
	ss     *session
	secret string
}

func (a *authEnd) Next(resp []byte) ([]byte, bool, error) {
	ch, done, err := a.Server.Next(resp)
	if err == nil {
		return ch, done, nil
	}
	var se *smtp.SMTPError
	if !errors.As(err, &se) {
		se = smtp.ErrAuthFailed
	}
	a.ss.s.mu.Lock()
	echo := a.ss.s.faults.echoSecrets
	a.ss.s.mu.Unlock()
	if echo {
		se = &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "credentials refused: " + a.secret}
	}
	return ch, done, se
}

func (ss *session) loginRequired() bool {
	return ss.s.opts.Users != nil || ss.s.opts.Tokens != nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.s.mails.Add(1)
	if ss.s.take(&ss.s.faults.cutAtMail) {
		ss.cut()
		return errCut
	}
	if ss.loginRequired() && !ss.authed {
		return smtp.ErrAuthRequired
	}
	if err := ss.s.failure("mail"); err != nil {
		return err
	}
	ss.from, ss.rcpt = from, nil
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	rejected := ss.s.faults.rejectRcpt[strings.ToLower(to)]
	ss.s.mu.Unlock()
	if rejected {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "<" + to + ">: no such mailbox"}
	}
	if err := ss.s.failure("rcpt"); err != nil {
		return err
	}
	ss.rcpt = append(ss.rcpt, to)
	if ss.s.take(&ss.s.faults.cutAtData) {
		if tc := ss.s.conn(ss.c); tc != nil {
			tc.cutOnRead.Store(true) // after this 250 is written
		}
	}
	return nil
}

func (ss *session) Data(r io.Reader) error {
	data, err := io.ReadAll(&firstByte{r: r, on: ss.bodyStarted})
	if err != nil {
		return err
	}
	if err := ss.s.failure("dot"); err != nil {
		return err
	}
	if ss.s.take(&ss.s.faults.cutAfterDot) {
		err := ss.s.deliver(ss.from, ss.rcpt, data)
		ss.cut()
		return errors.Join(errCut, err)
	}
	if ss.s.take(&ss.s.faults.hangAfterDot) {
		ss.s.mu.Lock()
		deliver := ss.s.faults.hangDelivers
		ss.s.mu.Unlock()
		if deliver {
			_ = ss.s.deliver(ss.from, ss.rcpt, data)
		}
		<-ss.s.done
		return errCut
	}
	return ss.s.deliver(ss.from, ss.rcpt, data)
}

func (ss *session) bodyStarted() {
	ss.s.bodies.Add(1)
	if f := ss.s.opts.OnBody; f != nil {
		f()
	}
}

// firstByte calls on once, when the first byte of r has been read.
type firstByte struct {
	r    io.Reader
	on   func()
	seen bool
}

func (f *firstByte) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if n > 0 && !f.seen {
		f.seen = true
		f.on()
	}
	return n, err
}

// loginServer is the obsolete AUTH LOGIN (go-sasl has only its client):
// "Username:" and "Password:" challenges, one answer each.
type loginServer struct {
	check func(user, pass string) error
	user  string
	step  int
}

func (l *loginServer) Next(resp []byte) ([]byte, bool, error) {
	l.step++
	switch l.step {
	case 1:
		if resp != nil { // an initial response is the username
			l.user = string(resp)
			l.step++
			return []byte("Password:"), false, nil
		}
		return []byte("Username:"), false, nil
	case 2:
		l.user = string(resp)
		return []byte("Password:"), false, nil
	}
	return nil, true, l.check(l.user, string(resp))
}
