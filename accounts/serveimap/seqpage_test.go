package serveimap

import (
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// Another client expunges while a first sync pages down the folder: a
// message below the floor (not yet fetched) and one above it. This
// session's numbering stands until it hears of them, so the pages by
// sequence number neither skip nor repeat a message; once it hears (a
// NOOP), the next page goes by uid. The sync then ends holding exactly
// what the server has.
func TestSyncPagesAcrossAnotherClientsExpunge(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for i := range 40 {
			b.Seed(t, user, "INBOX", mail(fmt.Sprintf("message %02d", i), "ann@example.org", time.Duration(40-i)*time.Hour))
		}
		other := b.Client(t, user)
		if _, err := other.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		expunge := func(uids ...uint32) {
			for _, uid := range uids {
				if err := other.Store(imap.UIDSetNum(imap.UID(uid)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
					t.Fatal(err)
				}
			}
			if err := other.Expunge().Close(); err != nil {
				t.Fatal(err)
			}
		}
		page := func(in imapwire.SyncIn) imapwire.SyncOut {
			var out imapwire.SyncOut
			in.Account, in.Limit = "work", 10
			mustOK(t, "sync_folder", call(t, cs, "sync_folder", in, &out))
			return out
		}
		held := map[uint32]bool{}
		floor := func(out imapwire.SyncOut) uint32 {
			low := uint32(0)
			for _, m := range out.New {
				if held[m.UID] {
					t.Fatalf("uid %d came twice", m.UID)
				}
				held[m.UID] = true
				if low == 0 || m.UID < low {
					low = m.UID
				}
			}
			return low
		}
		first := page(imapwire.SyncIn{})
		next := floor(first)
		uids := slices.Sorted(maps.Keys(truth(t, other)))
		expunge(uids[5], uids[35]) // below the floor, and above it
		out := page(imapwire.SyncIn{UIDValidity: first.UIDValidity, BeforeUID: next})
		next = floor(out)
		mustOK(t, "check_account", call(t, cs, "check_account", imapwire.AccountIn{Account: "work"}, nil)) // hears of the expunges
		expunge(uids[1])
		for out.More {
			if out = page(imapwire.SyncIn{UIDValidity: first.UIDValidity, BeforeUID: next}); len(out.New) > 0 {
				next = floor(out)
			}
		}
		want := truth(t, other)
		for uid := range want {
			if !held[uid] {
				t.Fatalf("uid %d on the server was never fetched", uid)
			}
		}
		for uid := range held {
			if _, ok := want[uid]; !ok && uid != uids[5] && uid != uids[35] && uid != uids[1] {
				t.Fatalf("uid %d fetched, never on the server", uid)
			}
		}
	})
}

// A server that answers NO to a page by sequence number (as one may for
// a message another session expunged unheard) gets the page by uid; the
// sync goes on, whole.
func TestSyncPageBySeqRefusedGoesByUID(t *testing.T) {
	faults := &memimap.Faults{}
	b := imaptest.NewMem(t, memimap.Options{Faults: faults})
	var n atomic.Int64
	sent := &sentLog{}
	cs, user := provisioned(t, b, Options{Dial: recordingDial(&n, sent)})
	for i := range 25 {
		b.Seed(t, user, "INBOX", mail(fmt.Sprintf("message %02d", i), "ann@example.org", time.Duration(25-i)*time.Hour))
	}
	sent.reset()
	var first imapwire.SyncOut
	mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work", Limit: 10}, &first))
	faults.RefuseSeqFetch(2) // the page, and its retry without BODYSTRUCTURE
	var second imapwire.SyncOut
	mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work", Limit: 10, UIDValidity: first.UIDValidity, BeforeUID: first.New[len(first.New)-1].UID}, &second))
	if len(second.New) != 10 || second.New[0].UID != first.New[len(first.New)-1].UID-1 || !second.More {
		t.Fatalf("the refused page: %d new from uid %d, more %v", len(second.New), second.New[0].UID, second.More)
	}
	if got := sent.count(" SEARCH "); got != 1 { // the first page needs none
		t.Fatalf("%d SEARCHes: the refused page should have gone by uid", got)
	}
}
