package teatest

import (
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

// A count of one takes the singular (issue 37, item 16): the list's
// header said "1 of 1 accounts · 1 messages", the move picker "move 1
// message(s)". Each line is read whole off the screen.
func TestCountsOfOneAreSingular(t *testing.T) {
	tm, _ := run(t, []tui.Account{newFake("Work", connected, msgs("Work", 1, time.Minute)...)}, 80, 24, nil)
	waitFor(t, tm, "1 of 1 account · 1 message ")
	tm.Send(key("m"))
	waitFor(t, tm, "move 1 message · enter pick")
	tm.Send(key("esc"))
	waitFor(t, tm, "move cancelled")
	tm.Send(key("t"))
	waitFor(t, tm, "1 of 1 account · 1 conversation · 1 message ")
	screen := final(t, tm)
	for _, plural := range []string{"1 messages", "1 accounts", "1 conversations", "(s)"} {
		if strings.Contains(screen, plural) {
			t.Errorf("the screen says %q:\n%s", plural, screen)
		}
	}
}

// Issue 37 item 4: a 1,000-message inbox, 600 unread, with a 50-row page
// loaded. The badge, the terminal title and the folder picker's INBOX
// say 600, the folder's count (the server's while the store fills, the
// store's once it holds the whole folder), not the loaded rows'; marking
// a row unread adds one to each at once. A real serve-imap child on a
// loopback server, with a store.
func TestBadgeTitleAndPickerSayTheInboxsCount(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	mem.NewUser(t) // user1
	left := 600
	for i := range 1000 {
		flags := []imap.Flag{imap.FlagSeen}
		if (i%5 < 3 || 1000-i <= left) && left > 0 {
			flags, left = nil, left-1
		}
		mem.Seed(t, "user1", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("n%04d", i),
			Date: now.Add(time.Duration(i-1000) * time.Minute), Body: "x"}.Bytes(), flags...)
	}
	set, st := openStoredUser(t, mem, filepath.Join(t.TempDir(), "store.db"), "user1", "user1-pw")
	defer st.Close()
	defer set.Close()
	// Title stays off: Bubble Tea v1.3.10 writes a title outside its
	// renderer's lock, a data race on teatest's output (the race detector
	// caught it here); the title is read off the final model instead.
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.PageSize = nil, 50 })
	waitFor(t, tm, "n0999", "1 of 1 account · 50 messages", "Home ● connected 600")
	tm.Send(key("u")) // the newest row, read
	waitFor(t, tm, "marked unread", "Home ● connected 601")
	tm.Send(key("o"))
	waitFor(t, tm, "folders of Home", "INBOX  601 unread")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	if title := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*tui.Model).WindowTitle(); title != "unibox (601 unread)" {
		t.Fatalf("the title says %q, want unibox (601 unread)", title)
	}
}
