package teatest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/tui"
)

// Live mail: another client (a phone, webmail) appends, flags and
// expunges; each shows in the list with no key pressed and no periodic
// refresh (off here, so only push can do it). Then the watching connection
// is cut: the account recovers and pushes again. Against the in-process
// server and a real Dovecot.
func TestLiveMailWithoutAKey(t *testing.T) {
	for _, tt := range []struct {
		name    string
		backend func(t *testing.T) (imaptest.Backend, string, string)
	}{
		{"memimap", func(t *testing.T) (imaptest.Backend, string, string) {
			b := imaptest.NewMem(t, memimap.Options{})
			user, pass := b.NewUser(t)
			return b, user, pass
		}},
		{"dovecot", func(t *testing.T) (imaptest.Backend, string, string) {
			b := imaptest.StartDovecot(t)
			user, pass := b.NewUser(t)
			return b, user, pass
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, user, pass := tt.backend(t)
			b.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: "already here", Date: now.Add(-time.Hour), Body: "x"}.Bytes())
			set, st := openStoredUser(t, b, filepath.Join(t.TempDir(), "store.db"), user, pass)
			defer st.Close()
			defer set.Close()
			tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
			waitFor(t, tm, "already here", "Home ● connected")

			uid := b.Seed(t, user, "INBOX", imaptest.Mail{From: "Bo <bo@example.org>", Subject: "pushed to the screen", Date: now, Body: "x"}.Bytes())
			waitFor(t, tm, "pushed to the screen", "1 new in Home")

			other := b.Client(t, user)
			if _, err := other.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			if err := other.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen, imap.FlagFlagged}}, nil).Close(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, tm, "!  Home Bo") // read (no bullet) and flagged
			if err := other.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
				t.Fatal(err)
			}
			if err := other.Expunge().Close(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, tm, "1 of 1 account · 1 message")

			b.Proxy().Drop() // every connection, the watching one too
			b.Seed(t, user, "INBOX", imaptest.Mail{From: "Cy <cy@example.org>", Subject: "after the cut", Date: now, Body: "x"}.Bytes())
			waitFor(t, tm, "after the cut")
			if screen := final(t, tm); strings.Contains(screen, "pushed to the screen") {
				t.Fatalf("the expunged message is still listed:\n%s", screen)
			}
		})
	}
}

// BenchmarkPushToScreen: from another client's APPEND to the row on the
// screen, through serve-imap's IDLE, the MCP notification, the listing
// and the store (goal ≤ 2 s on loopback).
func BenchmarkPushToScreen(b *testing.B) {
	mem := imaptest.NewMem(b, memimap.Options{})
	user, pass := mem.NewUser(b)
	set, st := openStoredUser(b, mem, filepath.Join(b.TempDir(), "store.db"), user, pass)
	defer st.Close()
	defer set.Close()
	tm, _ := run(b, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
	waitFor(b, tm, "Home ● connected")
	var total time.Duration
	i := 0
	for b.Loop() {
		i++
		subject := fmt.Sprintf("pushed message %d", i)
		start := time.Now()
		mem.Seed(b, user, "INBOX", imaptest.Mail{From: "Bo <bo@example.org>", Subject: subject, Date: time.Now(), Body: "x"}.Bytes())
		waitFor(b, tm, subject)
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/push")
}

// Push is part of health: when the watching connection cannot be made
// (the server refuses EXAMINE) the badge says "connected · polling" at
// once, not at the next probe; when it can again, a refresh brings the
// watch back and the mark goes.
func TestPushLostShowsInTheBadge(t *testing.T) {
	faults := &memimap.Faults{}
	mem := imaptest.NewMem(t, memimap.Options{Faults: faults})
	user, pass := mem.NewUser(t)
	set, st := openStoredUser(t, mem, filepath.Join(t.TempDir(), "store.db"), user, pass)
	defer st.Close()
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
	waitFor(t, tm, "Home ● connected")
	faults.RefuseExamine(true)
	mem.Proxy().Drop() // both connections: the main one comes back, the watch cannot
	waitFor(t, tm, "Home ● connected · polling")
	faults.RefuseExamine(false)
	// Refreshing probes the account, and the probe tries the watch again
	// at once (its own retries back off, up to a minute, while refused).
	tm.Send(key("R"))
	// The watch is back: the badge's last drawing has no polling mark.
	// ("Home ● connected " alone also matches "Home ● connected · polling",
	// which let this test end while the watch was still coming back.)
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		i := bytes.LastIndex(b, []byte("Home ● connected"))
		return i >= 0 && !bytes.HasPrefix(b[i+len("Home ● connected"):], []byte(" · polling"))
	}, teatest.WithDuration(waitBound), teatest.WithCheckInterval(5*time.Millisecond))
	if screen := final(t, tm); strings.Contains(screen, "polling") {
		t.Fatalf("still polling:\n%s", screen)
	}
}
