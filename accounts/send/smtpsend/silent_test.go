package smtpsend_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"unibox/accounts/send/smtpsend"
)

// A server that accepts and never greets fails the send at the greeting
// after StepTimeout, not after go-smtp's own five minutes (which
// NewClientStartTLS would use before any option could be set): the
// caller's context, far longer, is not what ends it.
func TestSilentServerTimesOutAtGreeting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(held)
				return
			}
			held <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for c := range held {
			c.Close()
		}
	})
	port := ln.Addr().(*net.TCPAddr).Port
	for _, security := range []string{"none", "starttls"} {
		t.Run(security, func(t *testing.T) {
			srv := smtpsend.Server{Host: "127.0.0.1", Port: port, Security: security}
			env := smtpsend.Envelope{From: "a@example.org", Rcpt: []string{"b@example.org"}, Data: []byte("x\r\n")}
			_, err := smtpsend.Send(ctx(t), srv, password(""), env, smtpsend.Options{StepTimeout: 200 * time.Millisecond})
			e := sendErr(t, err)
			if !errors.Is(err, smtpsend.ErrNotSent) || e.Stage != smtpsend.StageGreeting || smtpsend.Class(err) != "timeout" {
				t.Fatalf("got %v (stage %s, class %s), want not sent at greeting, class timeout", err, e.Stage, smtpsend.Class(err))
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%v: the test's context ended it, not StepTimeout", err)
			}
		})
	}
}
