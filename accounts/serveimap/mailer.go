package serveimap

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
	"unibox/conn"
	"unibox/model"
)

// What sending needs from the mail server: the copy in Sent and the
// postponed draft (append_message), removing a replaced or sent draft
// (delete_messages), and an original's attachments for a forward
// (get_part).

const (
	// defaultMaxAppend caps append_message's message: far above what
	// any mail server accepts (Gmail 35 MB, Outlook 150 MB is the rare
	// exception), far below what would exhaust the child.
	defaultMaxAppend = imapwire.MaxAppendBytes
	// defaultMaxPart caps get_part: the biggest attachment mail servers
	// take (25 MB), which a forward sends on.
	defaultMaxPart = imapwire.MaxPartBytes
)

// appendMessage stores a raw message in a folder. It is never retried
// once the APPEND may have gone out: a second one is a second copy. A
// drop after that is an unknown outcome (error outcome "unknown"), to be
// settled by find_message on its Message-ID.
func (s *Server) appendMessage(ctx context.Context, in imapwire.AppendMessageIn) (imapwire.AppendMessageOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.AppendMessageOut{}, "", err
	}
	flags, date, err := s.checkAppend(in)
	if err != nil {
		return imapwire.AppendMessageOut{}, "", withClass(conn.ClassTool, fmt.Errorf("append_message: %w", err))
	}
	var out imapwire.AppendMessageOut
	ctx = withTransfer(ctx, int64(len(in.Message)))
	sent, err := a.write(ctx, func(c *imapclient.Client, change func(cmd func() error) error) error {
		folder := in.Folder
		if in.Special != "" {
			f, err := a.specialFolder(ctx, c, in.Special)
			if err != nil {
				return err
			}
			folder = f
		}
		out.Folder = folderOr(folder)
		var data *imap.AppendData
		if err := change(func() error {
			cmd := c.Append(out.Folder, int64(len(in.Message)), &imap.AppendOptions{Flags: flags, Time: date})
			if _, err := cmd.Write([]byte(in.Message)); err != nil {
				cmd.Close()
				return err
			}
			if err := cmd.Close(); err != nil {
				return err
			}
			var err error
			data, err = cmd.Wait()
			return err
		}); err != nil {
			return err
		}
		if capable(c, imap.CapUIDPlus) && data != nil {
			out.UIDValidity, out.UID = data.UIDValidity, uint32(data.UID)
			return nil
		}
		// No APPENDUID: the folder's UIDVALIDITY still tells the caller
		// which folder generation it went to. The message is stored
		// whatever this STATUS says, so its failure fails nothing.
		_ = a.cmd(ctx, c, func() error {
			st, err := c.Status(out.Folder, &imap.StatusOptions{UIDValidity: true}).Wait()
			if err == nil {
				out.UIDValidity = st.UIDValidity
			}
			return err
		})
		return nil
	})
	if err != nil {
		if sent && (isDrop(err) || classOf(err, "") == conn.ClassTimeout) {
			// Class tool, as a move's per-uid unknown rides in a
			// successful answer: the server took the command, so it is
			// not known to be down (the next call re-dials, and finds
			// out), and the caller's next step, find_message, must not
			// meet a cooldown.
			err = withClass(conn.ClassTool, &unknownOutcome{err})
		}
		return imapwire.AppendMessageOut{}, "", fmt.Errorf("append to %s/%s: %w", in.Account, orSpecial(in.Folder, in.Special), err)
	}
	return out, fmt.Sprintf("appended %d bytes to %s (uid %d)", len(in.Message), out.Folder, out.UID), nil
}

func orSpecial(folder, special string) string {
	if special != "" {
		return "(" + special + ")"
	}
	return folder
}

// checkAppend refuses a bad append_message before anything is sent,
// naming the field.
func (s *Server) checkAppend(in imapwire.AppendMessageIn) ([]imap.Flag, time.Time, error) {
	var date time.Time
	switch {
	case (in.Folder == "") == (in.Special == ""):
		return nil, date, errors.New("give folder or special, not both and not neither")
	case in.Special != "" && in.Special != imapwire.SpecialSent && in.Special != imapwire.SpecialDrafts:
		return nil, date, fmt.Errorf("special %q: want sent or drafts", in.Special)
	case in.Message == "":
		return nil, date, errors.New("message is empty")
	}
	if err := model.CheckBytes("message", in.Message, s.maxAppend()); err != nil {
		return nil, date, err
	}
	if err := model.CheckBytes("folder", in.Folder, model.MaxFolderBytes); err != nil {
		return nil, date, err
	}
	if in.Date != "" {
		var err error
		if date, err = time.Parse(time.RFC3339, in.Date); err != nil {
			return nil, date, fmt.Errorf("date %q: want RFC 3339", in.Date)
		}
	}
	flags := make([]imap.Flag, 0, len(in.Flags))
	for i, f := range in.Flags {
		if !validFlag(f) {
			return nil, date, fmt.Errorf("flags[%d] %q: want a system flag (\\Seen, \\Answered, \\Flagged, \\Deleted, \\Draft) or a keyword atom", i, f)
		}
		flags = append(flags, imap.Flag(f))
	}
	return flags, date, nil
}

// validFlag accepts the system flags a client may set and keyword atoms
// (RFC 3501 flag-keyword: atom characters only, at most 100 bytes).
func validFlag(f string) bool {
	if strings.HasPrefix(f, `\`) {
		for _, sys := range []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft} {
			if strings.EqualFold(f, string(sys)) {
				return true
			}
		}
		return false
	}
	if f == "" || len(f) > 100 {
		return false
	}
	for i := 0; i < len(f); i++ {
		if c := f[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`(){%*"\]`, c) >= 0 {
			return false
		}
	}
	return true
}

func (s *Server) maxAppend() int {
	if s.opts.MaxAppendBytes > 0 {
		return s.opts.MaxAppendBytes
	}
	return defaultMaxAppend
}

func (s *Server) maxPart() int64 {
	if s.opts.MaxPartBytes > 0 {
		return int64(s.opts.MaxPartBytes)
	}
	return defaultMaxPart
}

type transferKey struct{}

// withTransfer gives the commands under ctx the time n bytes take over
// the slowest link allowed for (conn.TransferTime, the rule the parent's
// call bound follows too), on top of the command deadline: an APPEND's
// message going up, a get_part's attachment coming down (a 25 MiB
// forward on a 1 MB/s uplink took 26 s, and was cut at 15 s with its
// outcome unknown).
func withTransfer(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, transferKey{}, conn.TransferTime(n))
}

func transferTime(ctx context.Context) time.Duration {
	d, _ := ctx.Value(transferKey{}).(time.Duration)
	return d
}

// unknownOutcome is a write that may have reached the server before the
// connection dropped: its result says outcome "unknown".
type unknownOutcome struct{ error }

func (u *unknownOutcome) Unwrap() error { return u.error }

// deleteMessages removes exactly uids: STORE +FLAGS \Deleted, then UID
// EXPUNGE of those uids. Without UIDPLUS it refuses: a plain EXPUNGE
// would also remove every other message marked \Deleted.
func (s *Server) deleteMessages(ctx context.Context, in imapwire.DeleteMessagesIn) (imapwire.WriteOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.WriteOut{}, "", err
	}
	switch {
	case len(in.UIDs) == 0 || in.Folder == "" || in.UIDValidity == 0:
		return imapwire.WriteOut{}, "", withClass(conn.ClassTool, errors.New("delete_messages needs folder, uidvalidity and uids"))
	case len(in.UIDs) > model.MaxIDsPerCall:
		return imapwire.WriteOut{}, "", withClass(conn.ClassTool, &model.LimitError{Field: "uids", Got: len(in.UIDs), Limit: model.MaxIDsPerCall, Unit: "ids"})
	}
	folder := folderOr(in.Folder)
	var b *batch
	sent, err := a.write(ctx, func(c *imapclient.Client, change func(cmd func() error) error) (err error) {
		if !capable(c, imap.CapUIDPlus) {
			return withClass(conn.ClassTool, errors.New("the server lacks UIDPLUS: refusing to delete, because the only way without it (EXPUNGE) would also remove other messages marked deleted"))
		}
		if b, err = a.prepare(ctx, c, folder, in.UIDs, in.UIDValidity); err != nil || len(b.present) == 0 {
			return err
		}
		set := uidSet(b.present)
		del := imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
		if err := change(func() error { return c.Store(set, &del, nil).Close() }); err != nil {
			return err
		}
		return change(func() error { return c.UIDExpunge(set).Close() })
	})
	res, err := outcome(b, sent, err, func(u imap.UID) imapwire.Result { return imapwire.Result{UID: uint32(u), Status: imapwire.StatusDone} })
	if err != nil {
		return imapwire.WriteOut{}, "", fmt.Errorf("delete in %s/%s: %w", in.Account, folder, err)
	}
	return imapwire.WriteOut{Folder: folder, Results: res}, summarize("deleted", res), nil
}

// getPart fetches the message and keeps one attachment's decoded bytes
// from the same parse get_message lists them with (fetchParsed).
func (s *Server) getPart(ctx context.Context, in imapwire.GetPartIn) (imapwire.GetPartOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.GetPartOut{}, "", err
	}
	if in.UID == 0 || in.Index < 0 {
		return imapwire.GetPartOut{}, "", withClass(conn.ClassTool, fmt.Errorf("get_part: uid is required and index (%d) counts from 0", in.Index))
	}
	folder := folderOr(in.Folder)
	var out imapwire.GetPartOut
	// The size is known only once the message is read: give the fetch
	// the time of the biggest attachment it may bring back.
	ctx = withTransfer(ctx, s.maxPart())
	err = a.read(ctx, func(c *imapclient.Client) error {
		// A fresh Keep per attempt: a read retried after a drop starts
		// the attachment over.
		keep := &mailtext.Keep{Index: in.Index, Max: s.maxPart()}
		sel, _, parsed, err := a.fetchParsed(ctx, c, folder, in.UID, mailtext.Options{Keep: keep})
		if err != nil {
			return err
		}
		switch {
		case !keep.Found || in.Index >= len(parsed.Attachments):
			return withClass(conn.ClassTool, fmt.Errorf("index %d: the message has %d attachments", in.Index, len(parsed.Attachments)))
		case keep.TooBig:
			return withClass(conn.ClassTool, fmt.Errorf("index %d: attachment %s is %d bytes, over the limit of %d bytes",
				in.Index, model.Quote(parsed.Attachments[in.Index].Name), parsed.Attachments[in.Index].Size, s.maxPart()))
		}
		at := parsed.Attachments[in.Index]
		out = imapwire.GetPartOut{UIDValidity: sel.UIDValidity, Name: at.Name, Type: at.Type, Size: int64(len(keep.Data)), Data: keep.Data}
		if out.Data == nil {
			out.Data = []byte{}
		}
		return nil
	})
	if err != nil {
		return imapwire.GetPartOut{}, "", fmt.Errorf("get part %d of %s/%s/%d: %w", in.Index, in.Account, folder, in.UID, err)
	}
	return out, fmt.Sprintf("attachment %d: %s, %s, %d bytes", in.Index, out.Name, out.Type, out.Size), nil
}
