package serveimap

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
)

const (
	defaultLimit = 50
	maxLimit     = 1000
)

// folderOr is the folder a tool works on: "" and INBOX in any case are
// "INBOX" (model.CanonicalFolder), so ids, listings and the selected
// folder all spell the inbox one way.
func folderOr(f string) string { return model.CanonicalFolder(f) }

func clampLimit(n int) int {
	switch {
	case n <= 0:
		return defaultLimit
	case n > maxLimit:
		return maxLimit
	}
	return n
}

// selectFolder SELECTs folder (read-write: writes need it, reads use PEEK).
func (a *account) selectFolder(ctx context.Context, c *imapclient.Client, folder string) (*imap.SelectData, error) {
	var sel *imap.SelectData
	err := a.cmd(ctx, c, func() (err error) {
		sel, err = c.Select(folder, nil).Wait()
		return err
	})
	if err != nil {
		a.selected = selection{}
		return nil, fmt.Errorf("folder %q: %w", folder, err)
	}
	a.selected = selection{c: c, folder: folder, data: sel}
	return sel, nil
}

// fetchSummaries fetches envelopes for a set, newest (highest uid) first.
// A server that chokes on describing some message (imapmemserver drops the
// connection on a broken MIME structure; others answer NO) must not fail
// the whole list: the fetch is repeated without BODYSTRUCTURE, on a fresh
// connection if need be, and has_attachments is then left false. A set
// of sequence numbers fetched again on a fresh connection may name other
// messages if the folder changed meanwhile (an expunge shifts them down);
// a sync takes no harm from that: it goes on below the lowest uid it got,
// and a listing is a page of the newest either way.
func (a *account) fetchSummaries(ctx context.Context, c *imapclient.Client, set imap.NumSet, acct, folder string, uv uint32, extra []string) ([]imapwire.Message, error) {
	opts, section := summaryOptions(extra)
	var out []imapwire.Message
	var floorUID, floorSeq uint32 // the lowest uid fetched, for the next page (seqpage.go)
	var expunged uint64
	fetch := func(c *imapclient.Client, opts *imap.FetchOptions) error {
		out, floorUID, floorSeq, expunged = out[:0], 0, 0, a.expunged.Load() // a retry starts clean
		return a.fetchEach(ctx, c, set, opts, func(b *imapclient.FetchMessageBuffer) {
			if b.UID != 0 {
				out = append(out, summary(acct, folder, uv, b, section))
				if floorUID == 0 || uint32(b.UID) < floorUID {
					floorUID, floorSeq = uint32(b.UID), b.SeqNum
				}
			}
		})
	}
	err := fetch(c, opts)
	if err != nil && ctx.Err() == nil && classOf(err, "") != conn.ClassTimeout && closed(c) {
		// The link went down mid-FETCH: cut on the way, or a server that
		// choked. Once more in full on a fresh connection first.
		a.drop()
		if c, _, err = a.conn(ctx); err != nil {
			return nil, err
		}
		if _, err = a.selectFolder(ctx, c, folder); err != nil {
			return nil, err
		}
		err = fetch(c, opts)
	}
	if err != nil && ctx.Err() == nil && classOf(err, "") != conn.ClassTimeout {
		if closed(c) {
			a.drop()
			if c, _, err = a.conn(ctx); err != nil {
				return nil, err
			}
			if _, err = a.selectFolder(ctx, c, folder); err != nil {
				return nil, err
			}
		}
		plain := *opts
		plain.BodyStructure = nil
		err = fetch(c, &plain)
	}
	if err != nil {
		return nil, err
	}
	a.noteFloor(c, folder, floorUID, floorSeq, expunged)
	slices.SortFunc(out, func(x, y imapwire.Message) int { return int(int64(y.UID) - int64(x.UID)) })
	return out, nil
}

// fetchEach fetches set and hands each message to each as it arrives:
// a page is turned into our messages while the server is still sending
// the rest of it, not after.
func (a *account) fetchEach(ctx context.Context, c *imapclient.Client, set imap.NumSet, opts *imap.FetchOptions, each func(*imapclient.FetchMessageBuffer)) error {
	return a.cmd(ctx, c, func() error {
		cmd := c.Fetch(set, opts)
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			b, err := msg.Collect()
			if err != nil {
				cmd.Close()
				return err
			}
			each(b)
		}
		return cmd.Close()
	})
}

func (s *Server) listMessages(ctx context.Context, in imapwire.ListMessagesIn) (imapwire.ListMessagesOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.ListMessagesOut{}, "", err
	}
	defer a.live.markListed()
	folder, limit := folderOr(in.Folder), clampLimit(in.Limit)
	out := imapwire.ListMessagesOut{Folder: folder}
	err = a.read(ctx, func(c *imapclient.Client) error {
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil {
			return err
		}
		out.UIDValidity, out.Total = sel.UIDValidity, sel.NumMessages
		out.Messages = []imapwire.Message{}
		var set imap.NumSet
		if in.UnreadOnly || in.BeforeUID > 0 {
			crit := &imap.SearchCriteria{}
			if in.UnreadOnly {
				crit.NotFlag = []imap.Flag{imap.FlagSeen}
			}
			if in.BeforeUID > 0 {
				if in.BeforeUID == 1 {
					return nil
				}
				crit.UID = []imap.UIDSet{{imap.UIDRange{Start: 1, Stop: imap.UID(in.BeforeUID - 1)}}}
			}
			found, err := uidsMatching(ctx, a, c, crit)
			if err != nil {
				return err
			}
			if count(found) == 0 {
				return nil
			}
			set = top(found, limit)
		} else {
			// No filter: the newest messages are the last sequence numbers.
			n := sel.NumMessages
			if n == 0 {
				return nil
			}
			start := uint32(1)
			if n > uint32(limit) {
				start = n - uint32(limit) + 1
			}
			ss := imap.SeqSet{}
			ss.AddRange(start, n)
			set = ss
		}
		out.Messages, err = a.fetchSummaries(ctx, c, set, in.Account, folder, out.UIDValidity, nil)
		return err
	})
	if err != nil {
		return imapwire.ListMessagesOut{}, "", fmt.Errorf("list %s/%s: %w", in.Account, folder, err)
	}
	out.Push = s.pushState(in.Account)
	return out, fmt.Sprintf("%d of %d messages in %s", len(out.Messages), out.Total, folder), nil
}

func (s *Server) search(ctx context.Context, in imapwire.SearchIn) (imapwire.ListMessagesOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.ListMessagesOut{}, "", err
	}
	if in.Query == "" {
		return imapwire.ListMessagesOut{}, "", withClass(conn.ClassTool, fmt.Errorf("search: empty query"))
	}
	folder, limit := folderOr(in.Folder), clampLimit(in.Limit)
	out := imapwire.ListMessagesOut{Folder: folder, Messages: []imapwire.Message{}}
	q := in.Query
	// Each word in the sender, the subject or the body, in any order (a
	// person's "budget approval" finds "approval of the budget"): one OR
	// pair a word, the pairs ANDed.
	crit := &imap.SearchCriteria{}
	for _, w := range strings.Fields(q) {
		crit.Or = append(crit.Or, [2]imap.SearchCriteria{
			{Or: [][2]imap.SearchCriteria{{
				{Header: []imap.SearchCriteriaHeaderField{{Key: "From", Value: w}}},
				{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: w}}},
			}}},
			{Body: []string{w}},
		})
	}
	if len(crit.Or) == 0 {
		return imapwire.ListMessagesOut{}, "", withClass(conn.ClassTool, fmt.Errorf("search: empty query"))
	}
	if in.BeforeUID > 1 {
		// Only what lies below: the rest the caller holds (and a limit
		// spent on it would hide what it lacks). Below 1 lies nothing.
		crit.UID = []imap.UIDSet{{imap.UIDRange{Start: 1, Stop: imap.UID(in.BeforeUID - 1)}}}
	}
	err = a.read(ctx, func(c *imapclient.Client) error {
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil {
			return err
		}
		out.UIDValidity, out.Total = sel.UIDValidity, sel.NumMessages
		if in.BeforeUID == 1 {
			return nil
		}
		found, err := uidsMatching(ctx, a, c, crit)
		if err != nil {
			return err
		}
		if count(found) == 0 {
			out.Messages = []imapwire.Message{}
			return nil
		}
		out.Messages, err = a.fetchSummaries(ctx, c, top(found, limit), in.Account, folder, out.UIDValidity, nil)
		return err
	})
	if err != nil {
		return imapwire.ListMessagesOut{}, "", fmt.Errorf("search %s/%s: %w", in.Account, folder, err)
	}
	return out, fmt.Sprintf("%d messages in %s match %q", len(out.Messages), folder, q), nil
}

// findMessage looks a Message-ID up in a folder: after a move whose
// outcome is unknown, "is it in the destination?" decides between done
// and provably not done; a snooze wakes what it finds; a cut APPEND to
// Sent or Drafts is found before it is made twice. Every uid it answers
// carries exactly that Message-ID (uidsWithMessageID), never one that
// only contains it.
func (s *Server) findMessage(ctx context.Context, in imapwire.FindMessageIn) (imapwire.FindMessageOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.FindMessageOut{}, "", err
	}
	id := msgIDKey(in.MessageID)
	if id == "" {
		return imapwire.FindMessageOut{}, "", withClass(conn.ClassTool, fmt.Errorf("find_message: empty message_id"))
	}
	out := imapwire.FindMessageOut{UIDs: []uint32{}}
	err = a.read(ctx, func(c *imapclient.Client) error {
		folder := in.Folder
		if in.Special != "" {
			f, err := a.specialFolder(ctx, c, in.Special)
			if err != nil {
				return err
			}
			folder = f
		}
		folder = folderOr(folder)
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil {
			return err
		}
		out.Folder, out.UIDValidity, out.UIDs = folder, sel.UIDValidity, []uint32{}
		uids, err := a.uidsWithMessageID(ctx, c, id)
		if err != nil {
			return err
		}
		out.UIDs = append(out.UIDs, uids...)
		return nil
	})
	if err != nil {
		return imapwire.FindMessageOut{}, "", fmt.Errorf("find %s in %s: %w", id, in.Account, err)
	}
	return out, fmt.Sprintf("%d messages in %s with Message-ID %s", len(out.UIDs), out.Folder, id), nil
}
