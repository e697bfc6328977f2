package memimap_test

import (
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/testservers/memimap"
)

// HoldNext("APPEND") stops an APPEND with its message read and nothing
// stored, until Release: run stores it and answers OK, abort answers NO
// and stores nothing (a test kills the client meanwhile).
func TestHoldAppend(t *testing.T) {
	for _, run := range []bool{true, false} {
		t.Run(map[bool]string{true: "run", false: "abort"}[run], func(t *testing.T) {
			faults := &memimap.Faults{}
			srv, err := memimap.Start(memimap.Options{Faults: faults})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent}); err != nil {
				t.Fatal(err)
			}
			h := faults.HoldNext("APPEND")
			c := login(t, srv)
			raw := []byte("Subject: held\r\n\r\nbody\r\n")
			answered := make(chan error, 1)
			go func() {
				cmd := c.Append("Sent", int64(len(raw)), nil)
				_, werr := cmd.Write(raw)
				cerr := cmd.Close()
				_, err := cmd.Wait()
				answered <- errorsOf(werr, cerr, err)
			}()
			select {
			case <-h.Held:
			case <-time.After(patience):
				t.Fatal("the APPEND was never held")
			}
			if n := count(t, srv, "Sent"); n != 0 {
				t.Fatalf("%d messages in Sent while the APPEND is held", n)
			}
			h.Release(run)
			var err2 error
			select {
			case err2 = <-answered:
			case <-time.After(patience):
				t.Fatal("the released APPEND got no answer")
			}
			want := map[bool]uint32{true: 1, false: 0}[run]
			if n := count(t, srv, "Sent"); n != want || (err2 == nil) != run {
				t.Fatalf("released (run %v): %d in Sent, answer %v", run, n, err2)
			}
		})
	}
}

func errorsOf(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func login(t *testing.T, srv *memimap.Server) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login("sam", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

// count is how many messages another client finds in sam's folder.
func count(t *testing.T, srv *memimap.Server, folder string) uint32 {
	t.Helper()
	c := login(t, srv)
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return sel.NumMessages
}
