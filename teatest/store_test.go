package teatest

import (
	"context"

	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/ui/tui"
)

// openStored opens one account on d for alice, remembering its mail in the
// store file at path, through a real provider child.
func openStored(t testing.TB, d imaptest.Backend, path string) (*accounts.Set, *store.Store) {
	t.Helper()
	return openStoredUser(t, d, path, "alice", "alice-pw")
}

func openStoredUser(t testing.TB, d imaptest.Backend, path, user, password string) (*accounts.Set, *store.Store) {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Accounts: []config.Account{{Name: "Home", Kind: "imap", Host: d.Host(), Port: d.Port(), Security: "none", Username: user}}}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(t),
		Store: accounts.Have(st), Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return password, nil }
		}})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return set, st
}

// Offline start: a first run lists the account and quits; the server
// stops; a second run draws the same rows from the store at once, marked
// stale, with the badge saying the account is not connected.
func TestOfflineStartFromStore(t *testing.T) {
	d := imaptest.StartDovecot(t)
	d.NewUser(t)
	for _, s := range []string{"Boarding pass", "Dentist on Tuesday", "Photos from the trip"} {
		d.Seed(t, "alice", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: s, Date: time.Now().Add(-time.Hour), Body: "x"}.Bytes())
	}
	path := filepath.Join(t.TempDir(), "store.db")

	set, st := openStored(t, d, path)
	tm, m := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now = nil })
	// Stored, not only drawn: a first sync draws its first page before
	// the store has it, and says "syncing" in the badge until it has.
	waitFor(t, tm, "Photos from the trip", "Home ● connected 3")
	_ = tm.Quit()
	m.Close()
	set.Close()
	st.Close()

	d.Stop(t)
	set, st = openStored(t, d, path)
	defer st.Close()
	defer set.Close()
	tm, _ = run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now = nil })
	waitFor(t, tm, "~ Home", "Boarding pass", "Dentist on Tuesday", "Photos from the trip", "Home ⏸ cooling down")
	// Its body was never stored (cache_bodies is off): the message view
	// says so rather than only that the account is down.
	tm.Send(key("enter"))
	waitFor(t, tm, "cache_bodies is off")
}

// The filter reaches into the store beyond the loaded pages: an old
// message, stored by an earlier long listing but not on the first page,
// appears while typing even with the server gone (so no page can bring
// it), stale: no listing has confirmed it this session.
func TestFilterReachesStoredRows(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	mem.NewUser(t) // user1
	for i := range 60 {
		subject := fmt.Sprintf("weekly digest %02d", i)
		if i == 0 {
			subject = "Needle in the archive"
		}
		mem.Seed(t, "user1", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: subject, Date: now.Add(time.Duration(i-60) * time.Hour), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, mem, filepath.Join(t.TempDir(), "store.db"), "user1", "user1-pw")
	defer st.Close()
	defer set.Close()
	if _, err := set.Accounts[0].List(context.Background(), accounts.ListOptions{Limit: 100}); err != nil {
		t.Fatal(err) // as `unibox list --limit 100` would have stored it
	}
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.PageSize = 20 })
	waitFor(t, tm, "weekly digest 59", "Home ● connected")
	mem.Srv.Refuse()
	mem.Srv.DropAll()
	mem.Proxy().Drop()
	tm.Send(key("/"))
	for _, r := range "needle" {
		tm.Send(key(string(r)))
	}
	tm.Send(key("enter"))
	waitFor(t, tm, `filter "needle": 1 shown`)
	screen := final(t, tm)
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "Needle in the archive") && !strings.Contains(line, "~ Home") {
			t.Fatalf("the stored row is not marked stale:\n%s", screen)
		}
	}
}

// Paging while offline reads the store: past the first page, the older
// stored rows come in, stale, instead of an error per key press.
func TestOfflinePagingFromStore(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	mem.NewUser(t) // user1
	for i := range 30 {
		mem.Seed(t, "user1", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("weekly digest %02d", i), Date: now.Add(time.Duration(i-30) * time.Hour), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, mem, filepath.Join(t.TempDir(), "store.db"), "user1", "user1-pw")
	defer st.Close()
	defer set.Close()
	if _, err := set.Accounts[0].List(context.Background(), accounts.ListOptions{Limit: 100}); err != nil {
		t.Fatal(err)
	}
	mem.Srv.Refuse()
	mem.Srv.DropAll()
	mem.Proxy().Drop()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.PageSize, o.Now = 15, nil })
	waitFor(t, tm, "weekly digest 29", "Home ⏸ cooling down")
	tm.Send(key("G")) // to the 15th row: the stored page below it comes
	waitFor(t, tm, "weekly digest 14")
	tm.Send(key("G"))
	waitFor(t, tm, "weekly digest 00")
	for _, line := range strings.Split(final(t, tm), "\n") {
		if strings.Contains(line, "weekly digest 0") && !strings.Contains(line, "~ Home") {
			t.Fatalf("a row paged from the store is not stale: %q", line)
		}
	}
}

// Online, paging reads the store and the server both: the server's page
// confirms the stored rows in place (no stale mark left, no row twice),
// and a message expunged elsewhere since it was stored is gone.
func TestOnlinePagingConfirmsStoredRows(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	mem.NewUser(t) // user1
	uids := map[string]uint32{}
	for i := range 30 {
		s := fmt.Sprintf("weekly digest %02d", i)
		uids[s] = mem.Seed(t, "user1", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: s, Date: now.Add(time.Duration(i-30) * time.Hour), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, mem, filepath.Join(t.TempDir(), "store.db"), "user1", "user1-pw")
	defer st.Close()
	defer set.Close()
	if _, err := set.Accounts[0].List(context.Background(), accounts.ListOptions{Limit: 100}); err != nil {
		t.Fatal(err)
	}
	otherClientExpunges(t, mem, uids["weekly digest 03"])
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.PageSize, o.Now = 15, nil })
	waitFor(t, tm, "•   Home Ann                weekly digest 29") // listed: no stale mark
	tm.Send(key("G"))
	waitFor(t, tm, "weekly digest 14")
	tm.Send(key("G"))
	waitFor(t, tm, "•   Home Ann                weekly digest 00")
	screen := final(t, tm)
	if strings.Contains(screen, "~ Home") || strings.Contains(screen, "weekly digest 03") || strings.Count(screen, "weekly digest 04") != 1 {
		t.Fatalf("after paging online:\n%s", screen)
	}
}

// otherClientExpunges removes uid from user1's INBOX as another client.
func otherClientExpunges(t *testing.T, mem *imaptest.Mem, uid uint32) {
	t.Helper()
	c, err := imapclient.DialInsecure(mem.Srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("user1", "user1-pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
}

// The TUI syncs an IMAP account with a store instead of listing it: the
// first sync runs page by page in the background until the store holds
// the whole folder, while the newest rows are on screen from the first
// page on.
func TestFirstSyncFillsTheStore(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	mem.NewUser(t) // user1
	for i := range 450 {
		mem.Seed(t, "user1", "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("message %03d", i), Date: now.Add(time.Duration(i-450) * time.Minute), Body: "x"}.Bytes())
	}
	set, st := openStoredUser(t, mem, filepath.Join(t.TempDir(), "store.db"), "user1", "user1-pw")
	defer st.Close()
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 100, 24, func(o *tui.Options) { o.Now = nil })
	// One wait for both (output is consumed as it is read): the rows, and
	// the badge once it no longer says syncing, which it says from the
	// first page on, so "connected 450" shows only when the sync is done.
	// (Whether a "syncing" frame is drawn at all depends on the frame rate.)
	// 450 unread, the folder's count, though 50 rows are loaded.
	waitFor(t, tm, "message 449", "Home ● connected 450")
	sync, err := st.SyncState(context.Background(), store.Key{Name: "Home", Host: mem.Host(), User: "user1"}, "INBOX")
	if err != nil || sync.UIDNext == 0 || sync.Held != 450 {
		t.Fatalf("the first sync is not complete: %+v %v", sync, err) // every uid below UIDNEXT stored
	}
}
