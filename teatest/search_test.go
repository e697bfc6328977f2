package teatest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/tui"
)

// s searches the local store's index, offline: with the server gone, a
// launch from the store finds a message of Archive (never loaded in the
// list) beside one of INBOX, folded (koln finds Köln), newest first, and
// says they came from the store; rows the query does not match leave
// the list; a query that does not parse says where.
func TestSearchFromTheStoreOffline(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	user, pw := mem.NewUser(t)
	mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: "Lunch on Friday", Date: time.Now().Add(-time.Hour), Body: "noon"}.Bytes())
	mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: "Budget for Köln", Date: time.Now().Add(-2 * time.Hour), Body: "numbers"}.Bytes())
	mem.Seed(t, user, "Archive", imaptest.Mail{From: "Bob <bob@example.org>", Subject: "Old budget 2025", Date: time.Now().Add(-400 * 24 * time.Hour), Body: "last year"}.Bytes())
	path := filepath.Join(t.TempDir(), "store.db")

	set, st := openStoredUser(t, mem, path, user, pw)
	for _, folder := range []string{"", "Archive"} {
		for done := false; !done; {
			var err error
			if _, done, err = set.Accounts[0].Stored().SyncStep(context.Background(), folder); err != nil {
				t.Fatal(err)
			}
		}
	}
	set.Close()
	st.Close()
	mem.Srv.Close() // offline from here on

	set, st = openStoredUser(t, mem, path, user, pw)
	defer st.Close()
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now = nil })
	// The account's failed connect says so on the status line: waited
	// for first, or it came after the search and took the line the test
	// reads the search's outcome on (a CI run saw it once).
	waitFor(t, tm, "Lunch on Friday", "Budget for Köln", "cooling down", "add_account: unavailable")
	tm.Send(key("s"))
	typeText(tm, "koln OR 2025")
	tm.Send(key("enter"))
	waitFor(t, tm, `search "koln OR 2025": 2 in the local store, 2 shown`, "Old budget 2025", "Budget for Köln")
	screen := final(t, tm)
	if strings.Contains(screen, "Lunch on Friday") {
		t.Fatalf("a row the query does not match stayed:\n%s", screen)
	}
	if strings.Index(screen, "Budget for Köln") > strings.Index(screen, "Old budget 2025") {
		t.Fatalf("not newest first:\n%s", screen)
	}
}

// A search whose query does not parse says where, on the status line.
func TestSearchSaysWhereTheQueryIsWrong(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 3, time.Minute)...)
	tm, _ := run(t, []tui.Account{work}, 100, 24, nil)
	waitFor(t, tm, "3 messages")
	tm.Send(key("s"))
	typeText(tm, "budget (from:ann")
	tm.Send(key("enter"))
	waitFor(t, tm, `search: query: "(" at column 8`)
}

// A folder the store holds in part is asked on its server (issue 38),
// below the mail the store holds: Archive's newest page is stored, the
// message a search looks for is older, so the store has no hit and the
// server finds it, checked
// against the rest of the query on its envelope (is:flagged drops it:
// it is not flagged), and the status line says which folder the store
// holds in part.
//
// The hit lasts as long as the search: a listing that comes meanwhile (a
// refresh bringing new mail, or the launch's own, which a loaded machine
// answers after the search: the race CI found) keeps it, and esc takes it
// out of the inbox.
func TestSearchAsksTheServerForAFolderStoredInPart(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	user, pw := mem.NewUser(t)
	mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: "Lunch on Friday", Date: time.Now().Add(-time.Hour), Body: "noon"}.Bytes())
	mem.Seed(t, user, "Archive", imaptest.Mail{From: "Bob <bob@example.org>", Subject: "Old manifest", Date: time.Now().Add(-900 * 24 * time.Hour), Body: "the zeppelin plans"}.Bytes())
	for i := range 30 {
		mem.Seed(t, user, "Archive", imaptest.Mail{From: "Carl <carl@example.org>", Subject: fmt.Sprintf("filed %d", i), Date: time.Now().Add(-time.Duration(400-i) * 24 * time.Hour), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, mem, filepath.Join(t.TempDir(), "store.db"), user, pw)
	defer st.Close()
	defer set.Close()
	if p, err := set.Accounts[0].List(context.Background(), accounts.ListOptions{Folder: "Archive", Limit: 10}); err != nil || len(p.Messages) != 10 {
		t.Fatalf("Archive's newest page: %d rows, %v", len(p.Messages), err)
	}
	tm, _ := run(t, uiAccounts(set), 120, 24, func(o *tui.Options) { o.Now, o.PageSize = nil, 5 })
	waitFor(t, tm, "Lunch on Friday")
	tm.Send(key("s"))
	typeText(tm, "zeppelin is:flagged")
	tm.Send(key("enter"))
	waitFor(t, tm, `search "zeppelin is:flagged": 0 in the local store, 0 more found on the servers, 0 shown; stored in part: Home/Archive`)
	tm.Send(key("esc"))
	// The server is asked below the mail the store holds: a page of 5
	// spent on the newest matches would be the 10 stored ones again.
	tm.Send(key("s"))
	typeText(tm, "filed")
	tm.Send(key("enter"))
	waitFor(t, tm, `search "filed": 10 in the local store, 5 more found on the servers, 15 shown; stored in part: Home/Archive`)
	tm.Send(key("esc"))
	tm.Send(key("s"))
	typeText(tm, "zeppelin")
	tm.Send(key("enter"))
	waitFor(t, tm, `search "zeppelin": 0 in the local store, 1 more found on the servers, 1 shown; stored in part: Home/Archive`, "Old manifest")
	mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Dora <dora@example.org>", Subject: "Zeppelin news", Date: time.Now(), Body: "y"}.Bytes())
	tm.Send(key("r"))
	// Both lines are drawn again (a row came above the hit): a listing
	// that took the hit away would leave its line "Zeppelin news" only.
	waitFor(t, tm, "Zeppelin news", "Old manifest")
	tm.Send(key("esc"))
	waitFor(t, tm, "Lunch on Friday")
	if v := final(t, tm); strings.Contains(v, "Old manifest") || !strings.Contains(v, "Zeppelin news") {
		t.Fatalf("after esc, the inbox is not the inbox:\n%s", v)
	}
}
