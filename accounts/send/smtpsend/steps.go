package smtpsend

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"unibox/accounts/saslauth"
	"unibox/conn"
)

// auth logs in: a password with PLAIN (else LOGIN), a token with the
// account's OAuth2 mechanism. A refused token gets one fresh token and one
// more try on the same connection, as IMAP does; a refused password does
// not (asking again gives the same one, and servers penalise repeats).
func (s *sender) auth(ctx context.Context, c *smtp.Client) error {
	if s.srv.Username == "" {
		return nil
	}
	if ok, _ := c.Extension("AUTH"); !ok {
		return config(StageAuth, "%s offers no AUTH, so %s cannot log in (is this the submission port?)", s.srv.Host, s.srv.Username)
	}
	mech := strings.ToLower(s.srv.SASL)
	token := mech != ""
	switch {
	case mech == "xoauth2":
		mech = saslauth.XOAuth2
	case mech == "oauthbearer":
		mech = saslauth.OAuthBearer
	case c.SupportsAuth("PLAIN"):
		mech = sasl.Plain
	case c.SupportsAuth("LOGIN"):
		mech = sasl.Login
	default:
		return config(StageAuth, "%s offers neither AUTH PLAIN nor LOGIN for a password", s.srv.Host)
	}
	for fresh := false; ; fresh = true {
		sec, err := s.secret(ctx, fresh)
		if err != nil {
			e := s.fail(StageAuth, NotSent, fmt.Errorf("getting the secret of %s: %w", s.srv.Username, conn.NoSecret(err)))
			e.class = conn.ClassConfig
			return e
		}
		var client sasl.Client
		var oauth *saslauth.OAuthClient
		switch mech {
		case sasl.Plain:
			client = sasl.NewPlainClient("", s.srv.Username, sec)
		case sasl.Login:
			client = sasl.NewLoginClient(s.srv.Username, sec)
		default:
			oauth = saslauth.NewOAuth(mech, s.srv.Username, sec)
			client = oauth
		}
		_, ir, _ := client.Start()
		s.scrub.add(sec, ir)
		err = c.Auth(client)
		if err == nil {
			return nil
		}
		code := codeOf(err)
		if code < 500 || code >= 600 || code == 504 {
			return s.fail(StageAuth, byReply(err), err)
		}
		if token && !fresh {
			continue
		}
		why := ""
		if oauth != nil && oauth.Refusal() != "" {
			why = " (" + s.scrub.text(oauth.Refusal()) + ")"
		}
		hint := "check the password (password_cmd / password_env)"
		if token {
			hint = "the access token is expired or revoked even after a fresh one: check token_cmd, or authorise unibox again"
		}
		return s.fail(StageAuth, Refused, fmt.Errorf("%s refused the credentials of %s%s: %w: %w; %s", mech, s.srv.Username, why, ErrAuth, s.scrub.scrub(err), hint))
	}
}

// checkAddresses refuses an address go-smtp would refuse as a bad line,
// before any dial: that is bad input, not a network failure.
func checkAddresses(env Envelope) error {
	for _, a := range append([]string{env.From}, env.Rcpt...) {
		if strings.ContainsAny(a, "\r\n<>") || !utf8.ValidString(a) {
			return config(StageMail, "address %q holds a line break, an angle bracket or invalid UTF-8", a)
		}
	}
	for _, a := range env.Rcpt {
		if a == "" {
			return config(StageRcpt, "an empty recipient address")
		}
	}
	return nil
}

// envelope sends MAIL and every RCPT. A recipient refused at RCPT names
// its address, and the transaction is reset: nobody gets the message.
func (s *sender) envelope(c *smtp.Client) error {
	mopts := &smtp.MailOptions{Size: int64(len(s.env.Data))}
	if !ascii(s.env.From) || !allASCII(s.env.Rcpt) {
		if ok, _ := c.Extension("SMTPUTF8"); !ok {
			return config(StageMail, "an address is not ASCII and %s does not offer SMTPUTF8", s.srv.Host)
		}
		mopts.UTF8 = true
	}
	if err := c.Mail(s.env.From, mopts); err != nil {
		return s.fail(StageMail, byReply(err), err)
	}
	for _, r := range s.env.Rcpt {
		if err := c.Rcpt(r, nil); err != nil {
			// Stopping here, before DATA, is what sends nothing to anyone:
			// the connection closes and the transaction dies with it.
			e := s.fail(StageRcpt, byReply(err), err)
			e.Recipient = r
			return e
		}
	}
	return nil
}

// data sends DATA, calls BeforeBody, writes the body and waits for the
// answer to the final dot: the one step after which a failure is Unknown.
func (s *sender) data(c *smtp.Client, w *wire) (Receipt, error) {
	wc, err := c.Data()
	if err != nil {
		return Receipt{}, s.fail(StageData, byReply(err), err)
	}
	if s.opts.BeforeBody != nil {
		if err := s.opts.BeforeBody(); err != nil {
			// Hang up without the final dot: the server drops the transaction.
			_ = w.Conn.Close()
			return Receipt{}, s.fail(StageBody, NotSent, fmt.Errorf("before the body: %w", err))
		}
	}
	step := s.opts.StepTimeout
	for off := 0; off < len(s.env.Data); off += bodyChunk {
		end := min(off+bodyChunk, len(s.env.Data))
		_ = w.Conn.SetWriteDeadline(time.Now().Add(step))
		if _, err := wc.Write(s.env.Data[off:end]); err != nil {
			return Receipt{}, s.fail(StageBody, Unknown, err)
		}
	}
	_ = w.Conn.SetWriteDeadline(time.Now().Add(step)) // the flush of the end and the dot
	resp, err := wc.CloseWithResponse()
	if err != nil {
		if codeOf(err) != 0 {
			return Receipt{}, s.fail(StageDot, byReply(err), err)
		}
		return Receipt{}, s.fail(StageDot, Unknown, err)
	}
	// Sent: a slow or failing QUIT changes nothing.
	c.CommandTimeout = min(step, 5*time.Second)
	_ = c.Quit()
	return Receipt{Reply: "250 " + resp.StatusText, Size: s.size}, nil
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func allASCII(ss []string) bool {
	for _, s := range ss {
		if !ascii(s) {
			return false
		}
	}
	return true
}
