package smtpsend

import (
	"context"
	"errors"
	"time"
)

// SendRetrying is Send tried up to attempts times, waiting backoff(n)
// after the n-th failure. Only NotSent failures are tried again: a Refused
// message fails the same way every time, and an Unknown one may already be
// in the recipient's INBOX.
func SendRetrying(ctx context.Context, srv Server, secret Secret, env Envelope, opts Options, attempts int, backoff func(n int) time.Duration) (Receipt, error) {
	for n := 1; ; n++ {
		r, err := Send(ctx, srv, secret, env, opts)
		if err == nil || !errors.Is(err, ErrNotSent) || n >= attempts || ctx.Err() != nil {
			return r, err
		}
		var wait time.Duration
		if backoff != nil {
			wait = backoff(n)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return r, err
		case <-t.C:
		}
	}
}
