package accounts

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"

	"github.com/emersion/go-imap/v2"
)

// A store synced whole can still lack what the server has: here archives
// applied to the store whose outcome stayed unknown and were never
// carried out. The next sync's check finds the gap and fetches only the
// missing messages; a message a triage action is under way on is no gap
// and stays as the screen shows it.
func TestSyncMendsAGapInTheStore(t *testing.T) {
	wire := &imaptest.Wire{}
	a, mem, _ := storedAccountOn(t, false, memimap.Options{DebugWriter: wire})
	user := "user1"
	for i := range 10 {
		mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("m%d", i), Date: time.Now(), Body: "x"}.Bytes())
	}
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	page, _, err := a.Stored().Cached(context.Background(), "INBOX", 100)
	if err != nil || len(page.Messages) != 12 {
		t.Fatalf("synced %d: %v", len(page.Messages), err)
	}
	archive := model.Op{Action: model.ActArchive}
	lost := []model.Message{page.Messages[2], page.Messages[3], page.Messages[7]}
	prior := a.cache.applyOptimistic(archive, lost)
	unknown := make([]model.ItemResult, len(lost))
	for i, m := range lost {
		unknown[i] = model.ItemResult{UID: m.ID.UID, Kind: model.ResultUnknown}
	}
	a.cache.settle(lost, prior, unknown, nil) // unknown: the store keeps them archived
	underway := page.Messages[5:6]
	prior = a.cache.applyOptimistic(archive, underway)

	wire.Envelopes()
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if n := wire.Envelopes(); n != 3 {
		t.Fatalf("mending a gap of 3 fetched %d envelopes", n)
	}
	want := serverUIDs(t, mem, user)
	delete(want, underway[0].ID.UID)
	if got := storedUIDs(t, a); !maps.Equal(got, want) {
		t.Fatalf("stored %v, want the server's %v but for the one under way", got, want)
	}
	if err := a.Sync(context.Background(), "", nil); err != nil || wire.Envelopes() != 0 {
		t.Fatalf("the next sync: %v, fetched again", err)
	}
	a.cache.settle(underway, prior, []model.ItemResult{{UID: underway[0].ID.UID, Kind: model.ResultFailed}}, nil) // refused: put back
	if got := storedUIDs(t, a); !maps.Equal(got, serverUIDs(t, mem, user)) {
		t.Fatalf("after the refused archive: stored %v", got)
	}
}

// A gap behind an expunge: the store lacks one message the server has
// and holds one the server expunged, so the counts agree and no sync sees
// it, until the daily check asks for the whole uid set anyway.
func TestSyncCheckFindsAGapBehindAnExpunge(t *testing.T) {
	wire := &imaptest.Wire{}
	a, mem, _ := storedAccountOn(t, false, memimap.Options{DebugWriter: wire})
	user := "user1"
	for i := range 6 {
		mem.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: fmt.Sprintf("m%d", i), Date: time.Now(), Body: "x"}.Bytes())
	}
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	page, _, _ := a.Stored().Cached(context.Background(), "INBOX", 100)
	lost, gone := page.Messages[2], page.Messages[4]
	prior := a.cache.applyOptimistic(model.Op{Action: model.ActArchive}, []model.Message{lost})
	a.cache.settle([]model.Message{lost}, prior, []model.ItemResult{{UID: lost.ID.UID, Kind: model.ResultUnknown}}, nil)
	c := mem.Client(t, user)
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(imap.UID(gone.ID.UID)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	got := storedUIDs(t, a)
	_, stale := got[gone.ID.UID]
	if _, back := got[lost.ID.UID]; back || !stale {
		t.Fatalf("checked within the day though the counts agree: stored %v", got)
	}
	a.checkEvery = time.Nanosecond // a day later
	wire.Envelopes()
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	if got := storedUIDs(t, a); !maps.Equal(got, serverUIDs(t, mem, user)) {
		t.Fatalf("after the day's check: stored %v, server %v", got, serverUIDs(t, mem, user))
	}
	if n := wire.Envelopes(); n != 1 {
		t.Fatalf("the check mended a gap of one with %d envelopes", n)
	}
}

// A fill fetched while a triage action began or ended is not stored: it
// may bring back what the action just took away.
func TestGapFillYieldsToATriage(t *testing.T) {
	a, _, _ := storedAccount(t, false)
	if err := a.Sync(context.Background(), "", nil); err != nil {
		t.Fatal(err)
	}
	page, _, _ := a.Stored().Cached(context.Background(), "INBOX", 10)
	m := page.Messages[0]
	want, triages := a.cache.unheld("INBOX", [][2]uint32{{1, 5}})
	if len(want) != 1 || want[0] != [2]uint32{1, 5} {
		t.Fatalf("unheld %v", want)
	}
	prior := a.cache.applyOptimistic(model.Op{Action: model.ActArchive}, []model.Message{m})
	if held, _ := a.cache.unheld("INBOX", [][2]uint32{{1, 5}}); m.ID.UID != 2 || len(held) != 2 || held[0] != [2]uint32{1, 1} || held[1] != [2]uint32{3, 5} {
		t.Fatalf("uid %d under way, unheld %v", m.ID.UID, held)
	}
	if _, stored := a.cache.fill("INBOX", m.ID.UIDValidity, triages, []model.Message{m}); stored {
		t.Fatal("a fill taken before a triage began was stored")
	}
	a.cache.settle([]model.Message{m}, prior, []model.ItemResult{{UID: m.ID.UID, Kind: model.ResultDone}}, nil)
	if got := storedUIDs(t, a); got[m.ID.UID] {
		t.Fatal("the archived message came back")
	}
}
