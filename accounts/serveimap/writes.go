package serveimap

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
)

// batch is the common frame of a write: SELECT, a UIDVALIDITY check, and
// which of the asked uids are still there (the rest are already_gone, so a
// reconciling caller can tell done from failed).
type batch struct {
	sel     *imap.SelectData
	present []imap.UID
	gone    []uint32
}

func (a *account) prepare(ctx context.Context, c *imapclient.Client, folder string, uids []uint32, uidValidity uint32) (*batch, error) {
	sel, err := a.selectFolder(ctx, c, folder)
	if err != nil {
		return nil, err
	}
	if uidValidity != 0 && sel.UIDValidity != uidValidity {
		return nil, withClass(conn.ClassTool, fmt.Errorf("folder %s: UIDVALIDITY changed from %d to %d; uids no longer name the same messages", folder, uidValidity, sel.UIDValidity))
	}
	set := imap.UIDSet{}
	for _, u := range uids {
		set.AddNum(imap.UID(u))
	}
	var data *imap.SearchData
	if err := a.cmd(ctx, c, func() (err error) {
		data, err = c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
		return err
	}); err != nil {
		return nil, err
	}
	b := &batch{sel: sel, present: data.AllUIDs()}
	for _, u := range uids {
		if !slices.Contains(b.present, imap.UID(u)) {
			b.gone = append(b.gone, u)
		}
	}
	return b, nil
}

// outcome turns a write's result into per-uid results.
func outcome(b *batch, sent bool, err error, ok func(u imap.UID) imapwire.Result) ([]imapwire.Result, error) {
	if b == nil {
		return nil, err // nothing was sent: the call as a whole failed
	}
	var out []imapwire.Result
	for _, u := range b.gone {
		out = append(out, imapwire.Result{UID: u, Status: imapwire.StatusAlreadyGone})
	}
	for _, u := range b.present {
		switch {
		case err == nil:
			out = append(out, ok(u))
		case sent && isDrop(err) || sent && classOf(err, "") == conn.ClassTimeout:
			out = append(out, imapwire.Result{UID: uint32(u), Status: imapwire.StatusUnknown,
				Error: "the connection dropped after the command was sent: " + err.Error()})
		case sent:
			out = append(out, imapwire.Result{UID: uint32(u), Status: imapwire.StatusFailed, Error: err.Error()})
		default:
			return nil, err
		}
	}
	slices.SortFunc(out, func(x, y imapwire.Result) int { return int(int64(x.UID) - int64(y.UID)) })
	return out, nil
}

func uidSet(uids []imap.UID) imap.UIDSet { return imap.UIDSetNum(uids...) }

func (s *Server) setFlags(ctx context.Context, in imapwire.SetFlagsIn) (imapwire.WriteOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.WriteOut{}, "", err
	}
	if len(in.UIDs) == 0 || (in.Seen == nil && in.Flagged == nil && in.Answered == nil && in.Forwarded == nil) {
		return imapwire.WriteOut{}, "", withClass(conn.ClassTool, errors.New("set_flags needs uids and at least one of seen, flagged, answered, forwarded"))
	}
	var add, del []imap.Flag
	for _, f := range []struct {
		want *bool
		flag imap.Flag
	}{{in.Seen, imap.FlagSeen}, {in.Flagged, imap.FlagFlagged}, {in.Answered, imap.FlagAnswered}, {in.Forwarded, imap.FlagForwarded}} {
		switch {
		case f.want == nil:
		case *f.want:
			add = append(add, f.flag)
		default:
			del = append(del, f.flag)
		}
	}
	folder := folderOr(in.Folder)
	var b *batch
	var cannotKeep error
	sent, err := a.write(ctx, func(c *imapclient.Client, change func(cmd func() error) error) (err error) {
		if b, err = a.prepare(ctx, c, folder, in.UIDs, in.UIDValidity); err != nil || len(b.present) == 0 {
			return err
		}
		if in.Forwarded != nil && !keepsFlag(b.sel, imap.FlagForwarded) {
			// Stored, the keyword would last only as long as the session
			// (RFC 3501 7.1: PERMANENTFLAGS): nothing is sent, each uid
			// says why.
			cannotKeep = fmt.Errorf("folder %s cannot keep the $Forwarded keyword (its PERMANENTFLAGS lack \\* and $Forwarded): nothing was changed", model.Quote(folder))
			return nil
		}
		// +FLAGS / -FLAGS: absolute and idempotent, never a toggle, and
		// never clobbering flags set by someone else (FLAGS would).
		for _, st := range []imap.StoreFlags{{Op: imap.StoreFlagsAdd, Silent: true, Flags: add}, {Op: imap.StoreFlagsDel, Silent: true, Flags: del}} {
			if len(st.Flags) == 0 {
				continue
			}
			if err := change(func() error { return c.Store(uidSet(b.present), &st, nil).Close() }); err != nil {
				return err
			}
		}
		return nil
	})
	res, err := outcome(b, sent, err, func(u imap.UID) imapwire.Result {
		if cannotKeep != nil {
			return imapwire.Result{UID: uint32(u), Status: imapwire.StatusFailed, Error: cannotKeep.Error()}
		}
		return imapwire.Result{UID: uint32(u), Status: imapwire.StatusDone}
	})
	if err != nil {
		return imapwire.WriteOut{}, "", fmt.Errorf("set flags in %s/%s: %w", in.Account, folder, err)
	}
	return imapwire.WriteOut{Folder: folder, Results: res}, summarize("flags set", res), nil
}

func (s *Server) move(ctx context.Context, in imapwire.MoveIn) (imapwire.WriteOut, string, error) {
	return s.moveTo(ctx, imapwire.SpecialMoveIn{Account: in.Account, Folder: in.Folder, UIDs: in.UIDs, UIDValidity: in.UIDValidity}, "", in.To)
}

func (s *Server) archive(ctx context.Context, in imapwire.SpecialMoveIn) (imapwire.WriteOut, string, error) {
	return s.moveTo(ctx, in, imapwire.SpecialArchive, "")
}

func (s *Server) trash(ctx context.Context, in imapwire.SpecialMoveIn) (imapwire.WriteOut, string, error) {
	return s.moveTo(ctx, in, imapwire.SpecialTrash, "")
}

// moveTo moves uids to dest (or to the special folder kind). It uses MOVE;
// without it, COPY + STORE \Deleted + UID EXPUNGE of exactly those uids;
// without UIDPLUS it refuses, because a plain EXPUNGE would also remove
// other messages marked \Deleted.
func (s *Server) moveTo(ctx context.Context, in imapwire.SpecialMoveIn, kind, dest string) (imapwire.WriteOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.WriteOut{}, "", err
	}
	if len(in.UIDs) == 0 {
		return imapwire.WriteOut{}, "", withClass(conn.ClassTool, errors.New("no uids given"))
	}
	folder := folderOr(in.Folder)
	var b *batch
	destUIDs := map[imap.UID]imap.UID{}
	var destValidity uint32
	sent, err := a.write(ctx, func(c *imapclient.Client, change func(cmd func() error) error) (err error) {
		if kind != "" {
			if dest, err = a.specialFolder(ctx, c, kind); err != nil {
				return err
			}
		}
		// SameFolder, not ==: INBOX is case-insensitive, and a MOVE from
		// INBOX to "inbox" would move each message onto itself, new uid.
		if dest == "" || model.SameFolder(dest, folder) {
			return withClass(conn.ClassTool, fmt.Errorf("cannot move from %s to %s", model.Quote(folder), model.Quote(dest)))
		}
		dest = model.CanonicalFolder(dest)
		if b, err = a.prepare(ctx, c, folder, in.UIDs, in.UIDValidity); err != nil || len(b.present) == 0 {
			return err
		}
		set := uidSet(b.present)
		switch {
		case capable(c, imap.CapMove):
			var md *imapclient.MoveData
			if err := change(func() (err error) { md, err = c.Move(set, dest).Wait(); return err }); err != nil {
				return err
			}
			if md != nil {
				destValidity = md.UIDValidity
				pairUIDs(destUIDs, md.SourceUIDs, md.DestUIDs)
			}
		case capable(c, imap.CapUIDPlus):
			var cd *imap.CopyData
			if err := change(func() (err error) { cd, err = c.Copy(set, dest).Wait(); return err }); err != nil {
				return err
			}
			if cd != nil {
				destValidity = cd.UIDValidity
				pairUIDs(destUIDs, cd.SourceUIDs, cd.DestUIDs)
			}
			del := imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
			if err := change(func() error { return c.Store(set, &del, nil).Close() }); err != nil {
				return err
			}
			if err := change(func() error { return c.UIDExpunge(set).Close() }); err != nil {
				return err
			}
		default:
			return withClass(conn.ClassTool, errors.New("the server supports neither MOVE nor UIDPLUS: refusing to move, because the only fallback (EXPUNGE) would also delete other messages marked deleted"))
		}
		return nil
	})
	res, err := outcome(b, sent, err, func(u imap.UID) imapwire.Result {
		return imapwire.Result{UID: uint32(u), Status: imapwire.StatusMoved, DestUID: uint32(destUIDs[u]), DestUIDValidity: destValidity}
	})
	if err != nil {
		return imapwire.WriteOut{}, "", fmt.Errorf("move %s/%s to %q: %w", in.Account, folder, dest, err)
	}
	return imapwire.WriteOut{Folder: folder, To: dest, Results: res}, summarize("moved to "+dest, res), nil
}

// pairUIDs maps source uids to destination uids from COPYUID data (both
// sets list the uids in the same order).
func pairUIDs(m map[imap.UID]imap.UID, src, dst imap.NumSet) {
	s, ok1 := src.(imap.UIDSet)
	d, ok2 := dst.(imap.UIDSet)
	if !ok1 || !ok2 {
		return
	}
	sn, ok1 := s.Nums()
	dn, ok2 := d.Nums()
	if !ok1 || !ok2 || len(sn) != len(dn) {
		return
	}
	for i := range sn {
		m[sn[i]] = dn[i]
	}
}

func summarize(what string, res []imapwire.Result) string {
	counts := map[string]int{}
	for _, r := range res {
		counts[r.Status]++
	}
	return fmt.Sprintf("%s: %d done, %d already gone, %d failed, %d unknown", what,
		counts[imapwire.StatusDone]+counts[imapwire.StatusMoved], counts[imapwire.StatusAlreadyGone], counts[imapwire.StatusFailed], counts[imapwire.StatusUnknown])
}

// keepsFlag reports whether the selected folder stores flag for good: a
// server that sent no PERMANENTFLAGS keeps every flag (RFC 3501 7.1), and
// "\\*" lets a client create keywords.
func keepsFlag(sel *imap.SelectData, flag imap.Flag) bool {
	if sel == nil || sel.PermanentFlags == nil {
		return true
	}
	for _, f := range sel.PermanentFlags {
		if f == imap.FlagWildcard || strings.EqualFold(string(f), string(flag)) {
			return true
		}
	}
	return false
}
