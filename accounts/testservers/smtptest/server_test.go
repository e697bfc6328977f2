package smtptest_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"go.uber.org/goleak"

	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const patience = 20 * time.Second

// Close cuts a live session, releases a reply hung after the dot and
// leaves no goroutine behind (goleak checks after the tests), even for a
// server closed before its accept loop ran.
func TestCloseReleasesEverything(t *testing.T) {
	idle, err := smtptest.Start(smtptest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	idle.Close()

	delivered := make(chan struct{})
	var once sync.Once
	srv, err := smtptest.Start(smtptest.Options{Deliver: func(string, []string, []byte) error {
		once.Do(func() { close(delivered) })
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	srv.HangAfterDot(1, true)
	hung := make(chan error, 1)
	go func() {
		c, err := smtp.Dial(srv.Addr())
		if err != nil {
			hung <- err
			return
		}
		defer c.Close()
		hung <- c.SendMail("a@example.org", []string{"b@example.org"}, strings.NewReader("Subject: x\r\n\r\nbody\r\n"))
	}()
	live, err := smtp.Dial(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if err := live.Noop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-delivered: // the send is delivered; its answer now hangs
	case <-time.After(patience):
		t.Fatal("the send was never delivered")
	}
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(patience):
		t.Fatal("Close did not return")
	}
	if err := <-hung; err == nil {
		t.Fatal("the hung send got an answer")
	}
	if err := live.Noop(); err == nil {
		t.Fatal("a live session survived Close")
	}
	if srv.Deliveries() != 1 {
		t.Fatalf("%d deliveries, want 1", srv.Deliveries())
	}
}

// IntoMemIMAP appends to the INBOX of every recipient that is a memimap
// user (by address or local part) and skips the others.
func TestIntoMemIMAP(t *testing.T) {
	mem, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if err := mem.AddUser("bob", "pw", nil); err != nil {
		t.Fatal(err)
	}
	deliver := smtptest.IntoMemIMAP(mem)
	if err := deliver("a@example.org", []string{"bob@example.org", "carol@elsewhere.example"}, []byte("Subject: x\r\n\r\nhi\r\n")); err != nil {
		t.Fatal(err)
	}
	// The next append gets UID 2 only if the delivery above stored one.
	uid, err := mem.Append("bob", "INBOX", []byte("Subject: y\r\n\r\n"), nil, time.Time{})
	if err != nil || uid != 2 {
		t.Fatalf("next uid %d (%v): want 2, after exactly one delivered message", uid, err)
	}
}
