package teatest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
	"unibox/ui/tui"
)

// folderUser is a memimap user with folders beside the special ones.
func folderUser(t *testing.T, b *imaptest.Mem) (string, string) {
	t.Helper()
	const user = "sam"
	if err := b.Srv.AddUser(user, user+"-pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash,
		"Lists": "", "Receipts": ""}); err != nil {
		t.Fatal(err)
	}
	return user, user + "-pw"
}

func typeText(tm *teatest.TestModel, s string) {
	for _, r := range s {
		tm.Send(key(string(r)))
	}
}

// The folder flow through a real provider and store: o lists the
// account's folders with their unread counts; choosing one shows it in
// the list (the bar and header name it); a triage key acts in it; new
// mail is pushed to the folder on screen and to the inbox at once; esc
// goes back to the unified inbox, which kept up meanwhile. Visiting
// folder after folder holds one more IMAP connection, never one each.
func TestFolderFlow(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := folderUser(t, b)
	b.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: "in the inbox", Date: now.Add(-time.Hour), Body: "x"}.Bytes())
	for i, s := range []string{"list mail one", "list mail two"} {
		b.Seed(t, user, "Lists", imaptest.Mail{From: "List <list@example.org>", Subject: s, Date: now.Add(-time.Duration(i+2) * time.Hour), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, b, filepath.Join(t.TempDir(), "store.db"), user, pass)
	defer st.Close()
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
	waitFor(t, tm, "in the inbox", "Home ● connected 1")
	waitUntil(t, "the inbox watch never began IDLE", func() bool { return b.Srv.Idles() >= 1 })
	base, idles := b.Srv.Conns(), b.Srv.Idles()

	tm.Send(key("o"))
	waitFor(t, tm, "folders of Home", "Lists  2 unread", "Receipts")
	tm.Send(key("/"))
	typeText(tm, "lis")
	tm.Send(key("enter"))
	waitFor(t, tm, "Home: Lists · 2 messages", "Home/Lists ● connected", "list mail one", "list mail two")
	waitUntil(t, "the folder's watch never began IDLE", func() bool { return b.Srv.Idles() > idles })

	tm.Send(key("e")) // archive the newest row of the folder
	waitFor(t, tm, "archived 1: Home 1", "Home: Lists · 1 message")
	waitUntil(t, "the archived message never reached Archive", func() bool { return countIn(t, b, user, "Archive") == 1 })

	b.Seed(t, user, "Lists", imaptest.Mail{From: "List <list@example.org>", Subject: "pushed into the folder", Date: now, Body: "x"}.Bytes())
	waitFor(t, tm, "pushed into the folder", "Home: Lists · 2 messages")
	b.Seed(t, user, "INBOX", imaptest.Mail{From: "Bo <bo@example.org>", Subject: "pushed into the inbox", Date: now, Body: "x"}.Bytes())
	waitFor(t, tm, "Home/Lists ● connected 2") // the inbox's unread, in the bar

	for _, f := range []string{"Receipts", "Archive", "Lists"} {
		tm.Send(key("o"))
		waitFor(t, tm, "folders of Home", f) // the server's list: the store has not held every folder
		tm.Send(key("/"))
		typeText(tm, strings.ToLower(f[:3]))
		tm.Send(key("enter"))
		waitFor(t, tm, "Home: "+f)
		// Its push works: the watch is connected, and counted, now.
		b.Seed(t, user, f, imaptest.Mail{From: "Bo <bo@example.org>", Subject: "new in " + f, Date: now, Body: "x"}.Bytes())
		waitFor(t, tm, "new in "+f)
		waitUntil(t, "visiting folders: more than one IMAP connection besides the inbox's", func() bool { return b.Srv.Conns() <= base+1 })
	}

	tm.Send(key("esc"))
	waitFor(t, tm, "pushed into the inbox", "in the inbox", "Home ● connected 2")
	waitUntil(t, "back in the inbox, the folder's IMAP connection stayed", func() bool { return b.Srv.Conns() <= base })
	screen := final(t, tm)
	if strings.Contains(screen, "list mail") {
		t.Fatalf("the folder's rows stayed in the inbox:\n%s", screen)
	}
}

// countIn is how many messages folder holds on the server.
func countIn(t *testing.T, b *imaptest.Mem, user, folder string) int {
	c := b.Client(t, user)
	defer c.Close()
	d, err := c.Status(folder, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil || d.NumMessages == nil {
		return -1
	}
	return int(*d.NumMessages)
}

// waitUntil waits for cond; the bound is only a failure's.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A folder pages and filters as the inbox does, and `o` then INBOX goes
// back; offline, the picker lists the folders the store holds.
func TestFolderPagesFiltersAndOffline(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := folderUser(t, b)
	b.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: "in the inbox", Date: now.Add(-time.Hour), Body: "x"}.Bytes())
	for i := range 120 {
		b.Seed(t, user, "Receipts", imaptest.Mail{From: "Shop <shop@example.org>", Subject: fmt.Sprintf("receipt %03d", i), Date: now.Add(-time.Duration(120-i) * time.Hour), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, b, filepath.Join(t.TempDir(), "store.db"), user, pass)
	defer st.Close()
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.RefreshInterval, o.PageSize = nil, 0, 50 })
	waitFor(t, tm, "in the inbox", "Home ● connected")

	tm.Send(key("o"))
	waitFor(t, tm, "Receipts  120 unread")
	tm.Send(key("/"))
	typeText(tm, "rec")
	tm.Send(key("enter"))
	waitFor(t, tm, "Home: Receipts · 50 messages", "receipt 119")
	tm.Send(key("G"))
	waitFor(t, tm, "Home: Receipts · 100 messages")
	tm.Send(key("G"))
	waitFor(t, tm, "Home: Receipts · 120 messages")
	tm.Send(key("G"))
	waitFor(t, tm, "•   Home Shop               receipt 000") // from the synced store: not stale

	tm.Send(key("o"))
	waitFor(t, tm, "folders of Home")
	tm.Send(key("/"))
	typeText(tm, "inbox")
	tm.Send(key("enter"))
	waitFor(t, tm, "1 of 1 account · 1 message", "in the inbox")

	up := b.Proxy().Down()
	defer up()
	waitFor(t, tm, "Home ⏸") // the account knows it is offline
	tm.Send(key("o"))
	waitFor(t, tm, "folders of Home", "from the local store", "Receipts  120 unread")
	tm.Send(key("/"))
	typeText(tm, "rec")
	tm.Send(key("enter"))
	waitFor(t, tm, "Home: Receipts · 50 messages", "receipt 119")
	// The filter reaches into the folder's stored rows beyond the page.
	tm.Send(key("/"))
	typeText(tm, "receipt 00")
	tm.Send(key("enter"))
	waitFor(t, tm, `filter "receipt 00": 10 shown`, "receipt 000")
	// esc clears the filter: still in the folder. (How many rows it then
	// holds depends on whether the filter had paged on through the store
	// meanwhile: 60 or all 120.)
	tm.Send(key("esc"))
	waitFor(t, tm, "Home: Receipts · ", " messages · esc: inbox")
	tm.Send(key("esc"))
	waitFor(t, tm, "in the inbox")
}

// A folder the store has never held syncs as the inbox does: its first
// rows (a screen's worth) show after the first step, and the steps go on
// behind the screen until the store holds the whole folder.
func TestFolderFirstSyncInSteps(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := folderUser(t, b)
	const n = 450 // the first step, two pages of 200 and a rest
	for i := range n {
		b.Seed(t, user, "Receipts", imaptest.Mail{From: "Shop <shop@example.org>", Subject: fmt.Sprintf("receipt %03d", i), Date: now.Add(-time.Duration(n-i) * time.Hour), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, b, filepath.Join(t.TempDir(), "store.db"), user, pass)
	defer st.Close()
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
	waitFor(t, tm, "Home ● connected")
	tm.Send(key("o"))
	waitFor(t, tm, "Receipts  450 unread")
	tm.Send(key("/"))
	typeText(tm, "rec")
	tm.Send(key("enter"))
	waitFor(t, tm, "Home: Receipts", fmt.Sprintf("receipt %03d", n-1))
	a := set.Accounts[0]
	waitUntil(t, "the folder's sync stopped before the store held it whole", func() bool {
		fs, err := a.Stored().Folders(context.Background())
		for _, f := range fs {
			if f.Name == "Receipts" && f.Unread == n {
				return err == nil
			}
		}
		return false
	})
}

// folderFake is a fake account with a page per folder.
type folderFake struct {
	*fakeAccount
	folders map[string][]model.Message
}

func (f *folderFake) List(ctx context.Context, o accounts.ListOptions) (accounts.Page, error) {
	if o.Folder == "" || o.Folder == "INBOX" {
		return f.fakeAccount.List(ctx, o)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return accounts.Page{Folder: o.Folder, Messages: f.folders[o.Folder]}, nil
}

// An account that cannot push (a third-party MCP server) has the folder
// on screen refreshed periodically, as its inbox is.
func TestFolderRefreshedWithoutPush(t *testing.T) {
	receipt := func(uid uint32, subject string) model.Message {
		return model.Message{ID: model.MessageID{Account: "Work", Folder: "Receipts", UIDValidity: 1, UID: uid},
			From: model.Address{Name: "Shop", Address: "shop@example.com"}, Subject: subject, Date: now.Add(-time.Duration(10-uid) * time.Hour)}
	}
	work := &folderFake{fakeAccount: newFake("Work", connected, msgs("Work", 3, time.Hour)...),
		folders: map[string][]model.Message{"Receipts": {receipt(1, "the first receipt")}}}
	tm, _ := run(t, []tui.Account{work}, 100, 24, func(o *tui.Options) { o.RefreshInterval = 50 * time.Millisecond })
	waitFor(t, tm, "3 messages")
	tm.Send(key("o"))
	waitFor(t, tm, "Receipts")
	tm.Send(key("/"))
	typeText(tm, "rec")
	tm.Send(key("enter"))
	waitFor(t, tm, "Work: Receipts · 1 message", "the first receipt")
	work.mu.Lock()
	work.folders["Receipts"] = append([]model.Message{receipt(2, "a receipt on the refresh")}, work.folders["Receipts"]...)
	work.mu.Unlock()
	waitFor(t, tm, "a receipt on the refresh", "1 new in Work: Receipts")
}

// In a folder, a key that shows other accounts (tab) goes back to the
// inbox first, and the server search (which asks INBOX) says it does not
// search the folder.
func TestFolderKeysThatLeaveOrRefuse(t *testing.T) {
	work := &folderFake{fakeAccount: newFake("Work", connected, msgs("Work", 3, time.Hour)...),
		folders: map[string][]model.Message{"Receipts": {{ID: model.MessageID{Account: "Work", Folder: "Receipts", UIDValidity: 1, UID: 1},
			From: model.Address{Name: "Shop", Address: "shop@example.com"}, Subject: "the receipt", Date: now.Add(-time.Hour)}}}}
	home := newFake("Home", connected, msgs("Home", 2, time.Hour)...)
	tm, _ := run(t, []tui.Account{work, home}, 100, 24, nil)
	waitFor(t, tm, "5 messages")
	tm.Send(key("tab")) // focus Work
	waitFor(t, tm, "Work · 3 messages")
	tm.Send(key("o"))
	waitFor(t, tm, "folders of Work", "Receipts")
	tm.Send(key("/"))
	typeText(tm, "rec")
	tm.Send(key("enter"))
	waitFor(t, tm, "Work: Receipts · 1 message", "the receipt")
	tm.Send(key("s"))
	waitFor(t, tm, "search from the list covers every stored folder")
	tm.Send(key("tab"))
	waitFor(t, tm, "Home · 2 messages") // back in the inbox, then on to the next account
}
