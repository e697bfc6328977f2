package imapprovider

import (
	"context"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/secret"
	"unibox/accounts/send/smtpsend"
	"unibox/conn"
)

// sendTries is how often a message is offered before its body goes out
// (a connect that failed, a 4xx): after that, a failure is the outbox's
// to retry later, or the caller's to report.
const sendTries = 3

// sender submits an account's mail over SMTP with the account's own
// secret: the password, or the OAuth2 token (a fresh one once after a
// refusal, as for IMAP). nil when the account has no smtp_host.
func sender(ac config.Account, password provider.Password, secrets *secret.Box) func(context.Context, *conn.Adapter, smtpsend.Envelope, func() error) (smtpsend.Receipt, error) {
	if ac.SMTP == nil {
		return nil
	}
	srv := smtpsend.Server{
		Host: ac.SMTP.Host, Port: ac.SMTP.Port, Security: ac.SMTP.Security, AllowPlaintext: ac.AllowPlaintext,
		TLSCAPEM: ac.TLSCAPEM, TLSSkipVerify: ac.TLSSkipVerify, Username: ac.SMTP.Username,
	}
	if ac.Auth == config.AuthOAuth2 {
		srv.SASL = ac.SASL
		if srv.SASL == "" {
			srv.SASL = "xoauth2" // what Gmail's and Outlook's submission servers take
		}
	}
	secretOf := func(ctx context.Context, fresh bool) (string, error) {
		if fresh {
			ctx = provider.WithFresh(ctx)
		}
		p, err := password(ctx)
		if err == nil {
			secrets.Add(p)
		}
		return p, err
	}
	return func(ctx context.Context, _ *conn.Adapter, env smtpsend.Envelope, beforeBody func() error) (smtpsend.Receipt, error) {
		return smtpsend.SendRetrying(ctx, srv, secretOf, env, smtpsend.Options{BeforeBody: beforeBody}, sendTries,
			func(n int) time.Duration { return time.Duration(n) * time.Second })
	}
}
