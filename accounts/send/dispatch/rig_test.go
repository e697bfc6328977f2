package dispatch_test

import (
	"context"
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/smtptest"
)

// The rig: a real outbox in a temp folder, a real SMTP server on
// loopback (smtptest) reached through the real smtpsend, and the account
// behind dispatch.Account: its SMTP half real, its IMAP half a mailbox
// in memory (mailbox_test.go). dispatch.Account is the boundary the
// runner is written against; what is behind it (a serve-imap child) is
// tested in accounts.

// rig is one outbox and the accounts that send from it.
type rig struct {
	t   *testing.T
	box *outbox.Box
}

func newRig(t *testing.T) *rig {
	t.Helper()
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, box: box}
}

// account is a dispatch.Account that submits over SMTP to its own
// smtptest server and keeps its folders in a mailbox.
type account struct {
	name string
	srv  *smtptest.Server
	smtp smtpsend.Server
	pw   string // the password it logs in with, when the server wants one
	// refuse, when set, is what Send answers without dialling: a
	// third-party account's send tool whose login failed before anything
	// was written (accounts/mcpprovider: both ErrNotSent and ErrAuth).
	refuse error
	copy   dispatch.SentCopy
	*mailbox
}

// newAccount starts name's SMTP server with opts; the server files its
// own copy in Sent (as Gmail does) once a.mailbox.serverFiles is set.
func (r *rig) newAccount(name string, opts smtptest.Options, sc dispatch.SentCopy) *account {
	r.t.Helper()
	a := &account{name: name, copy: sc, mailbox: newMailbox()}
	if opts.Deliver == nil {
		opts.Deliver = a.deliver
	}
	srv, err := smtptest.Start(opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { srv.Close() })
	a.srv = srv
	a.smtp = smtpsend.Server{Host: srv.Host(), Port: srv.Port(), Security: "none"}
	return a
}

// deliver is the SMTP server handing on a message it accepted: a server
// that files its own copy in Sent puts it there too (save_sent = "auto"
// looks for it before appending).
func (a *account) deliver(_ string, _ []string, data []byte) error {
	a.mu.Lock()
	files := a.serverFiles
	a.mu.Unlock()
	if files {
		a.put("Sent", data, nil)
	}
	return nil
}

func (a *account) Name() string                { return a.name }
func (a *account) SentCopy() dispatch.SentCopy { return a.copy }

// Send is the real submission, one try: retries are the runner's.
func (a *account) Send(ctx context.Context, env smtpsend.Envelope, beforeBody func() error) (smtpsend.Receipt, error) {
	if a.refuse != nil {
		return smtpsend.Receipt{}, a.refuse
	}
	srv := a.smtp
	var secret smtpsend.Secret
	if a.pw != "" {
		srv.Username = "ann"
		secret = func(context.Context, bool) (string, error) { return a.pw, nil }
	}
	return smtpsend.Send(ctx, srv, secret, env, smtpsend.Options{BeforeBody: beforeBody, StepTimeout: 10 * time.Second})
}

// authNotSent is the error of a send tool whose login was refused before
// the message was written: nothing went, and trying again changes
// nothing.
type authNotSent struct{}

func (authNotSent) Error() string { return "the send tool's login was refused: not sent" }
func (authNotSent) Is(target error) bool {
	return target == smtpsend.ErrNotSent || target == smtpsend.ErrAuth
}

// The message every test sends: the wire has no Bcc, the copy for Sent
// keeps it, so a test can tell which of the two was filed.
const (
	msgID = "<m1@example.org>"
	wire  = "From: ann@example.org\r\nTo: bob@example.org\r\nMessage-ID: " + msgID + "\r\nSubject: hi\r\n\r\nhello\r\n"
	saved = "From: ann@example.org\r\nTo: bob@example.org\r\nBcc: carol@example.org\r\nMessage-ID: " + msgID + "\r\nSubject: hi\r\n\r\nhello\r\n"
)

// enqueue puts the message in the outbox for account, due now; edit
// fills in the rest (Original, Flag, ServerDraft, DraftID).
func (r *rig) enqueue(account string, edit func(*outbox.Entry)) outbox.Entry {
	r.t.Helper()
	e := outbox.Entry{Account: account, MessageID: msgID, From: "ann@example.org", Rcpt: []string{"bob@example.org"}, SendAt: time.Now()}
	if edit != nil {
		edit(&e)
	}
	e, err := r.box.Enqueue(e, []byte(wire), []byte(saved))
	if err != nil {
		r.t.Fatal(err)
	}
	return e
}

// onDisk is the entry as a fresh Box on the same root reads it; false:
// it is gone.
func (r *rig) onDisk(id string) (outbox.Entry, bool) {
	r.t.Helper()
	fresh, err := outbox.Open(r.box.Root())
	if err != nil {
		r.t.Fatal(err)
	}
	entries, err := fresh.Entries()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range entries {
		if e.ID == id {
			return e, true
		}
	}
	return outbox.Entry{}, false
}

// run starts r's runner over accts until the test ends; it waits for Run
// to return, so no worker outlives the test.
func (r *rig) run(run *dispatch.Runner) {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run.Run(ctx) }()
	r.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			r.t.Errorf("Run: %v", err)
		}
	})
}

// until waits on the runner's Changed until ok holds, within a generous
// bound that only a broken runner reaches.
func (r *rig) until(run *dispatch.Runner, what string, ok func() bool) {
	r.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for !ok() {
		select {
		case <-run.Changed():
		case <-deadline.C:
			r.t.Fatalf("waited 20s for %s", what)
		}
	}
}

// bounded is a context for a delivery the test waits on.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// accts turns the rig's accounts into what New takes.
func accts(as ...*account) []dispatch.Account {
	out := make([]dispatch.Account, len(as))
	for i, a := range as {
		out[i] = a
	}
	return out
}

// quick are runner options for tests that go through every step now:
// no wait between tries, no wait for the server's own copy.
func quick() dispatch.Options {
	return dispatch.Options{Backoff: func(int) time.Duration { return time.Millisecond }, LookAfter: time.Millisecond}
}
