package binarytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/facetest"
)

// Snooze in the real binary in tmux: Z with a typed time takes the row
// away, z brings it back; Z again until a few seconds ahead, and the
// running TUI brings it back by itself at that time, unread, [woken].
func TestSnoozeInRealTerminal(t *testing.T) {
	t.Parallel() // its own servers, XDG folders and tmux: nothing shared
	for _, b := range []struct {
		name string
		new  func(t *testing.T) imaptest.Backend
	}{
		{"memimap", func(t *testing.T) imaptest.Backend { return imaptest.NewMem(t, memimap.Options{}) }},
		{"dovecot", func(t *testing.T) imaptest.Backend { return imaptest.StartDovecot(t) }},
	} {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			snoozeInTmux(t, b.new(t))
		})
	}
}

func snoozeInTmux(t *testing.T, srv imaptest.Backend) {
	user, pass := srv.NewUser(t)
	srv.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.com>", Subject: "stays", Date: time.Now().Add(-time.Hour), Body: "x"}.Bytes(), imap.FlagSeen)
	srv.Seed(t, user, "INBOX", imaptest.Mail{From: "Bob <bob@example.com>", Subject: "snooze this", Date: time.Now(), Body: "x"}.Bytes(), imap.FlagSeen)
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	cfg := facetest.Resilience("1m") + facetest.IMAPAs("Work", user, srv.Port(), facetest.Env("PW"))
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(xdgIn(dir), "PW="+pass, "TZ=UTC")
	s := startTmux(t, buildUnibox(t), []string{"--config", path}, env, 110, 20)
	s.waitFor("snooze this", 30*time.Second)
	typeTime := func(at time.Time) {
		s.keys("Z")
		s.waitFor("snooze 1 message until", 10*time.Second)
		s.keys("-l", at.UTC().Format(time.RFC3339))
		s.keys("Enter")
	}
	typeTime(time.Now().Add(24 * time.Hour))
	s.waitFor("snoozed until", 20*time.Second)
	if lines := s.capture(); strings.Contains(strings.Join(lines, "\n"), "snooze this") {
		t.Fatalf("the snoozed row is still in the list:\n%s", strings.Join(lines, "\n"))
	}
	s.keys("z")
	s.waitFor("undone 1: Work 1", 20*time.Second)
	s.waitFor("snooze this", 20*time.Second)

	// The newest row is the one to snooze; the typed time has whole seconds.
	s.keys("g")
	until := time.Now().Add(6 * time.Second).Truncate(time.Second)
	typeTime(until)
	s.waitFor("snoozed until", 20*time.Second)
	lines := s.waitFor("[woken] snooze this", time.Until(until)+30*time.Second)
	if time.Now().Before(until) {
		t.Fatalf("woken before its time (%s):\n%s", until, strings.Join(lines, "\n"))
	}
	c := srv.Client(t, user)
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	res, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil || len(res.AllUIDs()) != 1 {
		t.Fatalf("unread in INBOX after the wake: %v %v", res, err)
	}
}
