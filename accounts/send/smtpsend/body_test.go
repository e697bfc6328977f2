package smtpsend_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/smtptest"
)

// BeforeBody runs once, after DATA's 354 and before the server has seen a
// single byte of the body (the outbox's `sending` mark must be on disk
// first). The body is large so that writing any of it before BeforeBody
// would reach the server before BeforeBody returns.
func TestBeforeBodyComesFirst(t *testing.T) {
	var calls, callsAtFirstByte atomic.Int64
	callsAtFirstByte.Store(-1)
	var w *world
	w = newWorld(t, smtptest.Options{OnBody: func() { callsAtFirstByte.Store(calls.Load()) }})
	env, marker := w.envelope()
	env.Data = append(env.Data, []byte(strings.Repeat("a line of the body, long enough to matter\r\n", 1<<18))...) // 11 MiB: more than loopback absorbs before the server reads
	var bodiesAtCall int
	_, err := smtpsend.Send(ctx(t), w.server(), password("ann-pw"), env, smtpsend.Options{BeforeBody: func() error {
		calls.Add(1)
		bodiesAtCall = w.srv.BodiesStarted()
		return nil
	}})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if calls.Load() != 1 || callsAtFirstByte.Load() != 1 || bodiesAtCall != 0 {
		t.Fatalf("BeforeBody called %d times; %d calls when the first body byte arrived; %d bodies begun at the call: want 1, 1, 0",
			calls.Load(), callsAtFirstByte.Load(), bodiesAtCall)
	}
	if n := w.copies(t, marker); n != 1 {
		t.Fatalf("%d copies, want 1", n)
	}
}

// A BeforeBody error (the outbox could not record `sending`) aborts with
// nothing sent: the server never gets a body, and delivers nothing.
func TestBeforeBodyErrorSendsNothing(t *testing.T) {
	w := newWorld(t, smtptest.Options{})
	env, marker := w.envelope()
	disk := errors.New("fsync: no space left on device")
	_, err := smtpsend.Send(ctx(t), w.server(), password("ann-pw"), env, smtpsend.Options{BeforeBody: func() error { return disk }})
	e := sendErr(t, err)
	if !errors.Is(err, smtpsend.ErrNotSent) || !errors.Is(err, disk) || e.Stage != smtpsend.StageBody {
		t.Fatalf("got %v (stage %s), want not sent at body, wrapping the callback's error", err, e.Stage)
	}
	if w.srv.BodiesStarted() != 0 || w.srv.Deliveries() != 0 || w.copies(t, marker) != 0 {
		t.Fatalf("%d bodies, %d deliveries after BeforeBody failed", w.srv.BodiesStarted(), w.srv.Deliveries())
	}
}

// Cancelling the send once the body is on its way cuts the connection,
// and the outcome is unknown, never "not sent".
func TestCancelDuringBodyIsUnknown(t *testing.T) {
	c, cancel := context.WithCancel(ctx(t))
	defer cancel()
	w := newWorld(t, smtptest.Options{OnBody: cancel})
	w.srv.HangAfterDot(1, false)
	env, _ := w.envelope()
	_, err := smtpsend.Send(c, w.server(), password("ann-pw"), env, smtpsend.Options{})
	if !errors.Is(err, smtpsend.ErrUnknown) || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want unknown, caused by the cancel", err)
	}
}
