package accounts

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

// serverUIDs is the folder as another client sees it: uid → flagged.
func serverUIDs(t *testing.T, mem *imaptest.Mem, user string) map[uint32]bool {
	t.Helper()
	out := map[uint32]bool{}
	for _, b := range fetchAll(t, mem, user, &imap.FetchOptions{UID: true, Flags: true}) {
		out[uint32(b.UID)] = slices.Contains(b.Flags, imap.FlagFlagged)
	}
	return out
}

// storedUIDs is the folder as the store holds it: uid → flagged.
func storedUIDs(t *testing.T, a *Account) map[uint32]bool {
	t.Helper()
	return storedBy(t, a, func(m model.Message) bool { return m.Flagged })
}

// storedBy is uid → what of each stored message of the inbox; a uid
// stored twice fails the test.
func storedBy(t *testing.T, a *Account, what func(model.Message) bool) map[uint32]bool {
	t.Helper()
	p, _, err := a.Stored().Cached(context.Background(), "INBOX", 100000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32]bool{}
	for _, m := range p.Messages {
		if _, dup := out[m.ID.UID]; dup {
			t.Fatalf("uid %d stored twice", m.ID.UID)
		}
		out[m.ID.UID] = what(m)
	}
	return out
}

// Sync through the real provider child into the store: a first sync in
// pages (cut off after the first page, it resumes below what it stored:
// no gap, no duplicate), then only the changes another client made.
func TestSyncIntoTheStore(t *testing.T) {
	a, mem, _ := storedAccount(t, false)
	user := "user1"
	for i := range 448 { // with storedAccount's two: 450, three pages of 200
		mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("m%03d", i), Date: time.Now().Add(-time.Duration(i) * time.Minute), Body: "x"}.Bytes())
	}
	ctx, cancel := context.WithCancel(context.Background())
	var progress []SyncProgress
	err := a.Sync(ctx, "", func(p SyncProgress) {
		progress = append(progress, p)
		cancel() // cut off after the first page
	})
	if err == nil || len(progress) != 1 || progress[0].Stored != 200 || progress[0].Total != 450 {
		t.Fatalf("cut sync: %v, progress %+v", err, progress)
	}
	progress = nil
	if err := a.Sync(context.Background(), "", func(p SyncProgress) { progress = append(progress, p) }); err != nil {
		t.Fatal(err)
	}
	if len(progress) != 2 || progress[1].Stored != 450 {
		t.Fatalf("resumed sync progress %+v (want two more pages, to 450)", progress)
	}
	if got, want := storedUIDs(t, a), serverUIDs(t, mem, user); !maps.Equal(got, want) {
		t.Fatalf("after the first sync: %d stored, %d on the server", len(got), len(want))
	}

	// Another client: a new message, a flag, an expunge.
	uids := slices.Sorted(maps.Keys(serverUIDs(t, mem, user)))
	mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Bo <bo@example.org>", Subject: "new", Date: time.Now(), Body: "x"}.Bytes())
	c := mem.Client(t, user)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	for uid, f := range map[uint32]imap.Flag{uids[10]: imap.FlagFlagged, uids[20]: imap.FlagDeleted} {
		if err := c.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{f}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if got, want := storedUIDs(t, a), serverUIDs(t, mem, user); !maps.Equal(got, want) {
		t.Fatalf("after another client's changes: %d stored, %d on the server", len(got), len(want))
	}
}

// An account that cannot sync says so: it is listed instead.
func TestSyncNeedsAStore(t *testing.T) {
	mem := imaptest.NewMem(t, memimap.Options{})
	user, _ := mem.NewUser(t)
	a := openAccount(t, config.Account{Name: "Work", Kind: "imap", Host: mem.Host(), Port: mem.Port(), Security: "none", Username: user,
		PasswordCmd: "printf " + user + "-pw"}, Options{})
	if err := a.Sync(context.Background(), "", nil); !errors.Is(err, ErrNoSync) {
		t.Fatalf("sync without a store: %v", err)
	}
}

// Back after a long absence: more new mail than a page. The sync brings it
// in pages, newest first, and ends (it once asked for the same newest page
// forever: a synced folder kept no place to go on from).
func TestSyncNewMailOfManyPages(t *testing.T) {
	a, mem, _ := storedAccount(t, false)
	user := "user1"
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	for i := range 450 {
		mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("n%03d", i), Date: time.Now(), Body: "x"}.Bytes())
	}
	var progress []SyncProgress
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := a.Sync(ctx, "", func(p SyncProgress) {
		if progress = append(progress, p); len(progress) > 5 {
			cancel()
		}
	})
	if err != nil || len(progress) != 3 {
		t.Fatalf("450 new in pages of 200: %v after %d steps %+v", err, len(progress), progress)
	}
	if got, want := storedUIDs(t, a), serverUIDs(t, mem, user); !maps.Equal(got, want) {
		t.Fatalf("after the new mail: %d stored, %d on the server", len(got), len(want))
	}
	if err := a.Sync(context.Background(), "", func(p SyncProgress) { progress = append(progress, p) }); err != nil || len(progress) != 4 {
		t.Fatalf("a sync after it: %v, %d steps", err, len(progress))
	}
}
