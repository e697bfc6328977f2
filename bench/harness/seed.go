package main

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// users are the Dovecot users every figure reads (.ci/dovecot.sh makes
// them, password USER-pw); the twenty-account runs cycle through them as
// the measurement did.
var users = []string{"alice", "bob", "carol"}

// newest is the subject of a user's newest message: its row on screen is
// "the first rows" (the three are the newest of the unified inbox, in
// this order, so the first screen of either program shows them).
func newest(user string) string { return "Newest for " + user }

// seed fills each user's INBOX with n messages unless it holds them
// already (a Dovecot left running between runs is seeded once).
func seed(addr string, n int) error {
	now := time.Now()
	for i, user := range users {
		if err := seedUser(addr, user, n, now.Add(-time.Duration(i+1)*time.Minute)); err != nil {
			return fmt.Errorf("seed %s: %w", user, err)
		}
	}
	return nil
}

func seedUser(addr, user string, n int, newestAt time.Time) error {
	c, err := login(addr, user)
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		return err
	}
	have := int(*st.NumMessages)
	if have > n {
		// Mail came since (a soak's): its newest rows would hide the
		// marker. The INBOX starts over.
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			return err
		}
		if err := c.Store(imap.SeqSet{imap.SeqRange{Start: 1, Stop: 0}}, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			return err
		}
		if err := c.Expunge().Close(); err != nil {
			return err
		}
		have = 0
	}
	for i := have; i < n; i++ {
		// Oldest first, as mail arrives; the last one is the newest.
		at := newestAt.Add(-time.Duration(n-1-i) * 37 * time.Minute)
		subject := fmt.Sprintf("%s message %04d", user, i)
		if i == n-1 {
			subject = newest(user)
		}
		if err := appendOne(c, user, i, subject, at); err != nil {
			return err
		}
	}
	return c.Logout().Wait()
}

// push delivers one new message to user's INBOX (the soak's new mail).
func push(addr, user, subject string) error {
	c, err := login(addr, user)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := appendOne(c, user, int(time.Now().Unix()), subject, time.Now()); err != nil {
		return err
	}
	return c.Logout().Wait()
}

func appendOne(c *imapclient.Client, user string, i int, subject string, at time.Time) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: Sender %d <sender%d@example.com>\r\n", i%97, i%97)
	fmt.Fprintf(&b, "To: %s <%s@example.com>\r\n", user, user)
	fmt.Fprintf(&b, "Subject: %s\r\n", subject)
	fmt.Fprintf(&b, "Date: %s\r\n", at.Format(time.RFC1123Z))
	fmt.Fprintf(&b, "Message-ID: <%s.%d.%d@bench.example>\r\n", user, i, at.UnixNano())
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	for range 12 {
		b.WriteString(strings.Repeat("Some words of a message body. ", 3) + "\r\n")
	}
	cmd := c.Append("INBOX", int64(b.Len()), &imap.AppendOptions{Time: at})
	if _, err := cmd.Write(b.Bytes()); err != nil {
		return err
	}
	if err := cmd.Close(); err != nil {
		return err
	}
	_, err := cmd.Wait()
	return err
}

// login is a session of user's (password USER-pw, as .ci/dovecot.sh
// makes them).
func login(addr, user string) (*imapclient.Client, error) {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		return nil, err
	}
	if err := c.Login(user, user+"-pw").Wait(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}
