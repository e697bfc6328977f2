package serveimap

import (
	"context"
	"errors"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/model"
)

// A sync in pages goes down the folder below the lowest uid it stored.
// Finding the next page by uid (a SEARCH over every uid below it) costs
// the server the whole rest of the folder each time: on Dovecot, a first
// sync of 100,000 messages spent a third of its time there. But the page
// below is also the sequence numbers below the last page's lowest, and
// those stand as long as this session has heard of no expunge (a server
// never renumbers a session's messages behind its back: RFC 3501 7.4.1,
// and never sends EXPUNGE during a FETCH). So the next page is a FETCH of
// sequence numbers, no SEARCH at all, while the numbering stands.

// seqHint is the lowest uid a page fetched on the selected folder and its
// sequence number, with the connection's expunge count then.
type seqHint struct {
	uid, seq uint32
	expunged uint64
}

// noteFloor keeps where a page of folder fetched on c ended, for the next
// page. expunged is the count before the FETCH: a UID FETCH may end with
// EXPUNGE responses that renumber what it just reported, and then the
// count has moved past it and the hint is void. Called with a.mu held.
func (a *account) noteFloor(c *imapclient.Client, folder string, uid, seq uint32, expunged uint64) {
	if a.selected.c != c || !model.SameFolder(a.selected.folder, folder) || uid == 0 || seq == 0 {
		return
	}
	a.selected.floor = seqHint{uid: uid, seq: seq, expunged: expunged}
}

// pageBySeq is the page of new messages below in.BeforeUID (at or above
// from) by sequence number, if the last page's floor is known and the
// numbering stands; ok false: page by uid instead.
func (a *account) pageBySeq(ctx context.Context, c *imapclient.Client, in imapwire.SyncIn, from uint32, limit int, out *imapwire.SyncOut) (ok bool, err error) {
	h := a.selected.floor
	if a.selected.c != c || !model.SameFolder(a.selected.folder, out.Folder) || h.uid != in.BeforeUID || h.seq == 0 || h.expunged != a.expunged.Load() {
		return false, nil
	}
	if h.seq == 1 {
		out.More = false // nothing below the floor
		return true, nil
	}
	lo := uint32(1)
	if h.seq > uint32(limit) {
		lo = h.seq - uint32(limit)
	}
	set := imap.SeqSet{}
	set.AddRange(lo, h.seq-1)
	msgs, err := a.fetchSummaries(ctx, c, set, in.Account, out.Folder, out.UIDValidity, in.Headers)
	var ie *imap.Error
	if errors.As(err, &ie) && !closed(c) {
		// A server may answer NO for a message expunged by another
		// session that this one has not heard of (RFC 2180 4.1.1): the
		// page goes by uid, which skips it.
		a.selected.floor = seqHint{}
		return false, nil
	}
	if err != nil {
		return true, err
	}
	lowest := in.BeforeUID
	for _, m := range msgs {
		if m.UID >= from {
			out.New = append(out.New, m)
			lowest = min(lowest, m.UID)
		}
	}
	// Below the lowest sequence number fetched, only uids below it: more
	// at or above from only if it was not the first, and all were.
	out.More = lo > 1 && len(out.New) == len(msgs) && lowest > from
	return true, a.fetchCalendars(ctx, c, out.New)
}
