package serveimap

import (
	"context"
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
)

// syncFolder answers sync_folder (see imapwire.SyncIn): only what changed
// since the client's state. An unchanged folder costs one SELECT: with
// CONDSTORE the same UIDNEXT and HIGHESTMODSEQ and an equal count say
// "nothing", and nothing else is sent.
func (s *Server) syncFolder(ctx context.Context, in imapwire.SyncIn) (imapwire.SyncOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.SyncOut{}, "", err
	}
	if err := checkHeaderNames(in.Headers); err != nil {
		return imapwire.SyncOut{}, "", withClass(conn.ClassTool, fmt.Errorf("sync_folder: headers: %w", err))
	}
	defer a.live.markListed()
	folder, limit := folderOr(in.Folder), clampLimit(in.Limit)
	var out imapwire.SyncOut
	err = a.read(ctx, func(c *imapclient.Client) error {
		out = imapwire.SyncOut{Folder: folder, New: []imapwire.Message{}} // a retry starts clean
		condstore := c.Caps().Has(imap.CapCondStore)
		// A page after the first (before_uid) goes on in the folder the
		// last page selected: it needs no fresh UIDNEXT or modseq.
		var sel *imap.SelectData
		if in.BeforeUID > 0 {
			sel = a.stillSelected(c, folder)
		}
		if sel == nil {
			if err := a.cmd(ctx, c, func() (err error) {
				sel, err = c.Select(folder, &imap.SelectOptions{CondStore: condstore}).Wait()
				return err
			}); err != nil {
				a.selected = selection{}
				return fmt.Errorf("folder %q: %w", folder, err)
			}
			a.selected = selection{c: c, folder: folder, data: sel}
		}
		out.UIDValidity, out.UIDNext, out.HighestModSeq, out.Total = sel.UIDValidity, uint32(sel.UIDNext), sel.HighestModSeq, sel.NumMessages
		out.Method = "flags"
		if condstore && sel.HighestModSeq > 0 {
			out.Method = "condstore"
		}
		if in.UIDValidity != sel.UIDValidity {
			out.Reset = true
			in.UIDNext, in.Held, in.HighestModSeq = 1, 0, 0
		}
		if len(in.Fill) > 0 {
			return s.fillGap(ctx, a, c, in, limit, &out)
		}
		return s.syncChanges(ctx, a, c, in, limit, &out)
	})
	if err != nil {
		return imapwire.SyncOut{}, "", fmt.Errorf("sync %s/%s: %w", in.Account, folder, err)
	}
	out.Push = s.pushState(in.Account)
	return out, fmt.Sprintf("%s: %d new, %d flag states, reset %v (%s)", folder, len(out.New), len(out.Flags), out.Reset, out.Method), nil
}

// syncChanges fills out with the new messages, the flag changes and, if
// the counts disagree, the uid set below the client's UIDNext.
func (s *Server) syncChanges(ctx context.Context, a *account, c *imapclient.Client, in imapwire.SyncIn, limit int, out *imapwire.SyncOut) error {
	from := max(in.UIDNext, 1)
	// New: uids at or above the client's UIDNext (below before_uid when
	// paging), newest first, a page of them.
	var newCount uint32
	if in.BeforeUID > 0 {
		if ok, err := a.pageBySeq(ctx, c, in, from, limit, out); ok || err != nil {
			return err
		}
	} else if from == 1 {
		// A first sync (or a reset): every message is new, and the
		// newest page is the last sequence numbers; no SEARCH.
		if out.Total == 0 {
			return nil
		}
		lo := uint32(1)
		if out.Total > uint32(limit) {
			lo = out.Total - uint32(limit) + 1
		}
		set := imap.SeqSet{}
		set.AddRange(lo, out.Total)
		msgs, err := a.fetchSummaries(ctx, c, set, in.Account, out.Folder, out.UIDValidity, in.Headers)
		if err != nil {
			return err
		}
		out.New, out.More = msgs, out.Total > uint32(limit)
		return a.fetchCalendars(ctx, c, out.New)
	}
	if from < out.UIDNext {
		set := imap.UIDSet{imap.UIDRange{Start: imap.UID(from), Stop: 0}}
		if in.BeforeUID > 0 {
			set = imap.UIDSet{imap.UIDRange{Start: imap.UID(from), Stop: imap.UID(in.BeforeUID - 1)}}
		}
		found, err := uidsIn(ctx, a, c, set)
		if err != nil {
			return err
		}
		// "n:*" matches the highest uid even below n (RFC 3501): keep the
		// ones really at or above from.
		found = clip(found, from)
		newCount = count(found)
		if newCount > 0 {
			msgs, err := a.fetchSummaries(ctx, c, top(found, limit), in.Account, out.Folder, out.UIDValidity, in.Headers)
			if err != nil {
				return err
			}
			out.New, out.More = msgs, newCount > uint32(limit)
			if err := a.fetchCalendars(ctx, c, out.New); err != nil {
				return err
			}
		}
	}
	if out.Reset || from <= 1 || in.BeforeUID > 0 {
		return nil // nothing held below: no flags, no expunges to learn
	}
	held := imap.UIDSet{imap.UIDRange{Start: 1, Stop: imap.UID(from - 1)}}
	// Flags that may have changed.
	if out.Method == "condstore" && in.HighestModSeq > 0 {
		if out.HighestModSeq != in.HighestModSeq {
			if err := s.flagStates(ctx, a, c, held, in.HighestModSeq, out); err != nil {
				return err
			}
		}
	} else if err := s.flagStates(ctx, a, c, held, 0, out); err != nil {
		return err
	}
	// Expunges: the server's messages below the client's UIDNext against
	// the uids the client holds there. An expunge and an arrival together
	// keep the folder's count, but not this one.
	below := out.Total - newCount
	if below == in.Held && !in.Check {
		return nil
	}
	present, err := uidsIn(ctx, a, c, held)
	if err != nil {
		return err
	}
	out.Checked, out.Present = true, present
	return nil
}

// fillGap fetches the envelopes of the uids the client lacks below its
// UIDNext (the highest limit of them): what a store that missed them (an
// optimistic removal the server never carried out) needs to be whole
// again. A folder of another UIDVALIDITY is a reset; the client syncs
// afresh instead.
func (s *Server) fillGap(ctx context.Context, a *account, c *imapclient.Client, in imapwire.SyncIn, limit int, out *imapwire.SyncOut) error {
	if out.Reset {
		return nil
	}
	var held [][2]uint32
	for _, r := range in.Fill {
		if r[0] >= 1 && r[0] <= r[1] && r[0] < in.UIDNext {
			held = append(held, [2]uint32{r[0], min(r[1], in.UIDNext-1)})
		}
	}
	held = merge(held)
	if len(held) == 0 {
		return nil
	}
	msgs, err := a.fetchSummaries(ctx, c, top(held, limit), in.Account, out.Folder, out.UIDValidity, in.Headers)
	if err != nil {
		return err
	}
	out.New, out.More = msgs, count(held) > uint32(limit)
	return a.fetchCalendars(ctx, c, out.New)
}

// flagStates fetches the flags of the held uids, those changed since
// modseq when it is not 0.
func (s *Server) flagStates(ctx context.Context, a *account, c *imapclient.Client, held imap.UIDSet, modseq uint64, out *imapwire.SyncOut) error {
	opts := &imap.FetchOptions{UID: true, Flags: true, ChangedSince: modseq}
	var bufs []*imapclient.FetchMessageBuffer
	if err := a.cmd(ctx, c, func() (err error) { bufs, err = c.Fetch(held, opts).Collect(); return err }); err != nil {
		return err
	}
	for _, b := range bufs {
		if b.UID == 0 {
			continue
		}
		out.Flags = append(out.Flags, imapwire.FlagState{UID: uint32(b.UID),
			Seen: hasFlag(b.Flags, imap.FlagSeen), Flagged: hasFlag(b.Flags, imap.FlagFlagged),
			Answered: hasFlag(b.Flags, imap.FlagAnswered), Forwarded: hasFlag(b.Flags, imap.FlagForwarded)})
	}
	return nil
}

// checkHeaderNames refuses what is no header field's name (RFC 5322:
// printable ASCII but the colon), and more than MaxSyncHeaders of them:
// they go into the FETCH command.
func checkHeaderNames(names []string) error {
	if len(names) > imapwire.MaxSyncHeaders {
		return fmt.Errorf("more than %d", imapwire.MaxSyncHeaders)
	}
	for _, n := range names {
		if n == "" || len(n) > 76 || strings.ContainsFunc(n, func(r rune) bool { return r < 33 || r > 126 || r == ':' }) {
			return fmt.Errorf("%s is not a header field's name", model.Quote(n))
		}
	}
	return nil
}
