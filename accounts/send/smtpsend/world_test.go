package smtpsend_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/send/smtpsend"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
)

// patience bounds waits that only a broken sender reaches.
const patience = 30 * time.Second

// world is a real SMTP server on loopback delivering into a real IMAP
// server's INBOX; the recipient reads it back over IMAP.
type world struct {
	mem  *imaptest.Mem
	srv  *smtptest.Server
	user string // the memimap user the message goes to
	n    int
}

// newWorld starts both servers; without Users or Tokens the submission
// login is ann / ann-pw.
func newWorld(t testing.TB, opts smtptest.Options) *world {
	t.Helper()
	mem := imaptest.NewMem(t, memimap.Options{})
	user, _ := mem.NewUser(t)
	if opts.Users == nil && opts.Tokens == nil {
		opts.Users = map[string]string{"ann": "ann-pw"}
	}
	opts.Deliver = smtptest.IntoMemIMAP(mem.Srv)
	srv, err := smtptest.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &world{mem: mem, srv: srv, user: user}
}

func (w *world) server() smtpsend.Server {
	return smtpsend.Server{Host: "127.0.0.1", Port: w.srv.Port(), Security: "none", Username: "ann"}
}

// envelope is a new message to the world's user; its marker finds it.
func (w *world) envelope(extra ...string) (smtpsend.Envelope, string) {
	w.n++
	marker := fmt.Sprintf("<m%d.%d@example.org>", w.n, time.Now().UnixNano())
	data := "From: Ann <ann@example.org>\r\nTo: " + w.user + "@example.org\r\nSubject: hello\r\nMessage-ID: " + marker + "\r\n\r\nHi.\r\n"
	return smtpsend.Envelope{From: "ann@example.org", Rcpt: append([]string{w.user + "@example.org"}, extra...), Data: []byte(data)}, marker
}

// copies counts the messages holding marker in the user's INBOX, read
// over IMAP.
func (w *world) copies(t *testing.T, marker string) int {
	t.Helper()
	return copiesIn(t, w.mem.Client(t, w.user), marker)
}

// copiesIn counts the messages holding marker in c's INBOX.
func copiesIn(t *testing.T, c *imapclient.Client, marker string) int {
	t.Helper()
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return 0
	}
	msgs, err := c.Fetch(imap.SeqSetNum(seqs(sel.NumMessages)...), &imap.FetchOptions{
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		for _, b := range m.BodySection {
			if bytes.Contains(b.Bytes, []byte(marker)) {
				n++
			}
		}
	}
	return n
}

func seqs(n uint32) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(i + 1)
	}
	return s
}

// secrets is a Secret that records each call's fresh flag.
type secrets struct {
	mu    sync.Mutex
	calls []bool
	give  func(fresh bool) string
}

func (s *secrets) get(_ context.Context, fresh bool) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, fresh)
	return s.give(fresh), nil
}

func (s *secrets) Calls() []bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]bool(nil), s.calls...)
}

func password(p string) smtpsend.Secret {
	return func(context.Context, bool) (string, error) { return p, nil }
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), patience)
	t.Cleanup(cancel)
	return c
}

// sendErr is err as an *smtpsend.Error, or a failure.
func sendErr(t *testing.T, err error) *smtpsend.Error {
	t.Helper()
	var e *smtpsend.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *smtpsend.Error", err, err)
	}
	return e
}

func mustContain(t *testing.T, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%q does not say %q", s, w)
		}
	}
}
