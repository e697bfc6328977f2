package imapprovider

import (
	"context"
	"fmt"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// imapProvider speaks to `unibox serve-imap`.
type imapProvider struct {
	account string
	push    *provider.PushState // what the last listing said of push
}

func (p imapProvider) List(ctx context.Context, a *conn.Adapter, o provider.ListOptions) (provider.Page, error) {
	var out imapwire.ListMessagesOut
	in := imapwire.ListMessagesIn{Account: p.account, Folder: o.Folder, Limit: o.Limit, BeforeUID: o.BeforeUID, UnreadOnly: o.UnreadOnly}
	if _, err := provider.Call(ctx, a, imapwire.ToolListMessages, in, true, &out, imapwire.Decode); err != nil {
		return provider.Page{}, err
	}
	return p.page(out, o.Limit), nil
}

func (p imapProvider) Search(ctx context.Context, a *conn.Adapter, folder, query string, limit int, before uint32) (provider.Page, error) {
	var out imapwire.ListMessagesOut
	in := imapwire.SearchIn{Account: p.account, Folder: folder, Query: query, Limit: limit, BeforeUID: before}
	if _, err := provider.Call(ctx, a, imapwire.ToolSearch, in, true, &out, imapwire.Decode); err != nil {
		return provider.Page{}, err
	}
	return p.page(out, limit), nil
}

func (p imapProvider) page(out imapwire.ListMessagesOut, limit int) provider.Page {
	if limit <= 0 {
		limit = 50
	}
	pg := provider.Page{Folder: out.Folder, UIDValidity: out.UIDValidity, Total: out.Total, Push: pushOf(out.Push)}
	storePush(p.push, out.Push)
	for _, m := range out.Messages {
		pg.Messages = append(pg.Messages, toModel(p.account, out.Folder, m))
	}
	// A full page of a bigger folder, whose oldest uid is not 1, has more.
	if n := len(pg.Messages); n >= limit && n > 0 && pg.Messages[n-1].ID.UID > 1 {
		pg.More = true
	}
	return pg
}

func toModel(account, folder string, m imapwire.Message) model.Message {
	id, err := model.ParseMessageID(m.ID)
	if err != nil {
		id = model.MessageID{Account: account, Folder: folder, UIDValidity: m.UIDValidity, UID: m.UID}
	}
	out := model.Message{
		ID: id, MessageID: m.MessageID, From: model.Address(m.From), To: addrs(m.To), Subject: m.Subject,
		Date: parseTime(m.Date), Seen: m.Seen, Flagged: m.Flagged, Answered: m.Answered, Forwarded: m.Forwarded,
		Size: m.Size, HasAttachments: m.HasAttachments, Threading: threading(m.Threading),
		AttachmentNames: m.AttachmentNames, ListID: m.ListID,
	}
	for _, h := range m.Headers {
		out.Headers = append(out.Headers, model.Header{Name: h.Name, Value: h.Value})
	}
	if m.Invitation != "" {
		out.Invitation = model.InvitationOf(m.Invitation)
	}
	if m.Threading != nil {
		// Fetched in the same FETCH as the threading ids: known, if none.
		out.Cc = append(make([]model.Address, 0, len(m.Cc)), addrs(m.Cc)...)
	}
	return out
}

// threading carries the raw ids over as they are: the child checked them.
func threading(t *imapwire.ThreadHeaders) *model.ThreadHeaders {
	if t == nil {
		return nil
	}
	return &model.ThreadHeaders{MessageID: t.MessageID, InReplyTo: t.InReplyTo, References: t.References}
}

func addrs(list []imapwire.Address) []model.Address {
	out := make([]model.Address, 0, len(list))
	for _, a := range list {
		out = append(out, model.Address(a))
	}
	return out
}

func (p imapProvider) Get(ctx context.Context, a *conn.Adapter, id model.MessageID) (model.Body, error) {
	if err := p.checkValidity(imapwire.ToolGetMessage, id.Folder, id.UIDValidity); err != nil {
		return model.Body{}, err
	}
	var out imapwire.GetMessageOut
	if _, err := provider.Call(ctx, a, imapwire.ToolGetMessage, imapwire.GetMessageIn{Account: p.account, Folder: id.Folder, UID: id.UID}, true, &out, imapwire.Decode); err != nil {
		return model.Body{}, err
	}
	if out.UIDValidity != id.UIDValidity {
		return model.Body{}, &conn.Error{Account: p.account, Op: imapwire.ToolGetMessage, Class: conn.ClassTool,
			Err: fmt.Errorf("folder %s changed (UIDVALIDITY %d, was %d): reload it", id.Folder, out.UIDValidity, id.UIDValidity)}
	}
	b := model.Body{Message: toModel(p.account, id.Folder, out.Message), Text: out.Body, FromHTML: out.BodyIsHTML, Problems: out.Problems,
		ReplyTo: addrs(out.ReplyTo), Bcc: addrs(out.Bcc), InReplyTo: out.InReplyTo, References: out.References, Calendar: out.Calendar}
	b.Cc = append(make([]model.Address, 0, len(out.Cc)), addrs(out.Cc)...)
	for _, h := range out.Headers {
		b.Headers = append(b.Headers, model.Header(h))
	}
	for _, at := range out.Attachments {
		b.Attachments = append(b.Attachments, model.Attachment(at))
	}
	return b, nil
}

func (p imapProvider) Folders(ctx context.Context, a *conn.Adapter) ([]model.Folder, error) {
	var out imapwire.ListFoldersOut
	if _, err := provider.Call(ctx, a, imapwire.ToolListFolders, imapwire.AccountIn{Account: p.account}, true, &out, imapwire.Decode); err != nil {
		return nil, err
	}
	fs := make([]model.Folder, 0, len(out.Folders))
	for _, f := range out.Folders {
		fs = append(fs, model.Folder{Name: f.Name, SpecialUse: f.SpecialUse, Unread: f.Unread, Total: f.Total})
	}
	return fs, nil
}

// checkValidity refuses UIDVALIDITY 0, before anything is sent. An IMAP
// server's UIDVALIDITY is never 0 (RFC 3501 2.3.1.1: a non-zero number),
// so an id that says 0 was not made by unibox from a listing: with it, the
// child's check that the folder is still the one the uid was read from
// would be skipped, and the uid could name any message. It is refused as
// a changed UIDVALIDITY is. (A third-party MCP account's ids carry 0 by
// design; they never come here.)
func (p imapProvider) checkValidity(op, folder string, uv uint32) error {
	if uv != 0 {
		return nil
	}
	return &conn.Error{Account: p.account, Op: op, Class: conn.ClassTool,
		Err: fmt.Errorf("folder %s: UIDVALIDITY 0 is no IMAP folder's; the id was not made from a listing, and its uid may name any message", model.Quote(folder))}
}

func (p imapProvider) Write(ctx context.Context, a *conn.Adapter, op model.Op, folder string, uv uint32, uids []uint32) ([]model.ItemResult, error) {
	var tool string
	var args any
	switch op.Action {
	case model.ActSetSeen:
		tool, args = imapwire.ToolSetFlags, imapwire.SetFlagsIn{Account: p.account, Folder: folder, UIDs: uids, UIDValidity: uv, Seen: &op.Value}
	case model.ActSetFlagged:
		tool, args = imapwire.ToolSetFlags, imapwire.SetFlagsIn{Account: p.account, Folder: folder, UIDs: uids, UIDValidity: uv, Flagged: &op.Value}
	case model.ActArchive:
		tool, args = imapwire.ToolArchive, imapwire.SpecialMoveIn{Account: p.account, Folder: folder, UIDs: uids, UIDValidity: uv}
	case model.ActTrash:
		tool, args = imapwire.ToolTrash, imapwire.SpecialMoveIn{Account: p.account, Folder: folder, UIDs: uids, UIDValidity: uv}
	case model.ActMove:
		tool, args = imapwire.ToolMove, imapwire.MoveIn{Account: p.account, Folder: folder, UIDs: uids, UIDValidity: uv, To: op.To}
	default:
		return nil, fmt.Errorf("unknown op %s", op.Action)
	}
	if err := p.checkValidity(tool, folder, uv); err != nil {
		return nil, err
	}
	var out imapwire.WriteOut
	if _, err := provider.Call(ctx, a, tool, args, false, &out, imapwire.Decode); err != nil {
		return nil, err
	}
	return p.results(out), nil
}

// results turns a write's per-uid answer into the model's.
func (p imapProvider) results(out imapwire.WriteOut) []model.ItemResult {
	res := make([]model.ItemResult, 0, len(out.Results))
	for _, r := range out.Results {
		ir := model.ItemResult{UID: r.UID, Err: r.Error}
		switch r.Status {
		case imapwire.StatusDone, imapwire.StatusMoved:
			ir.Kind = model.ResultDone
			if r.DestUID != 0 {
				ir.Dest = model.MessageID{Account: p.account, Folder: out.To, UIDValidity: r.DestUIDValidity, UID: r.DestUID}
			}
		case imapwire.StatusAlreadyGone:
			ir.Kind = model.ResultGone
		case imapwire.StatusUnknown:
			ir.Kind = model.ResultUnknown
		default:
			ir.Kind = model.ResultFailed
		}
		res = append(res, ir)
	}
	return res
}

// lookup lists the newest message at or below uid: it is uid itself when
// the message is still there.
func (p imapProvider) Lookup(ctx context.Context, a *conn.Adapter, folder string, uid uint32) (model.Message, bool, error) {
	page, err := p.List(ctx, a, provider.ListOptions{Folder: folder, BeforeUID: uid + 1, Limit: 1})
	if err != nil {
		return model.Message{}, false, err
	}
	if len(page.Messages) == 1 && page.Messages[0].ID.UID == uid {
		return page.Messages[0], true, nil
	}
	return model.Message{}, false, nil
}

func (p imapProvider) Find(ctx context.Context, a *conn.Adapter, op model.Op, messageID string) (model.MessageID, bool, error) {
	in := imapwire.FindMessageIn{Account: p.account, MessageID: messageID}
	switch op.Action {
	case model.ActArchive:
		in.Special = imapwire.SpecialArchive
	case model.ActTrash:
		in.Special = imapwire.SpecialTrash
	case model.ActMove:
		in.Folder = op.To
	default:
		return model.MessageID{}, false, nil
	}
	var out imapwire.FindMessageOut
	if _, err := provider.Call(ctx, a, imapwire.ToolFindMessage, in, true, &out, imapwire.Decode); err != nil {
		return model.MessageID{}, false, err
	}
	if len(out.UIDs) == 0 {
		return model.MessageID{}, false, nil
	}
	// Every uid carries exactly messageID (find_message confirms each on
	// its envelope); of several copies, the newest.
	return model.MessageID{Account: p.account, Folder: out.Folder, UIDValidity: out.UIDValidity, UID: out.UIDs[len(out.UIDs)-1]}, true, nil
}

// parseTime reads a wire date (RFC 3339); a missing or bad one is zero.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// Sync asks the child what changed since req's state.
func (p imapProvider) Sync(ctx context.Context, a *conn.Adapter, req provider.SyncRequest) (provider.SyncPage, error) {
	var out imapwire.SyncOut
	in := imapwire.SyncIn{Account: p.account, Folder: req.Folder, UIDValidity: req.UIDValidity, UIDNext: req.UIDNext,
		HighestModSeq: req.HighestModSeq, Held: req.Held, BeforeUID: req.BeforeUID, Limit: req.Limit, Fill: req.Fill, Check: req.Check,
		Headers: req.Headers}
	if _, err := provider.Call(ctx, a, imapwire.ToolSyncFolder, in, true, &out, imapwire.Decode); err != nil {
		return provider.SyncPage{}, err
	}
	storePush(p.push, out.Push)
	pg := provider.SyncPage{Folder: out.Folder, Reset: out.Reset, UIDValidity: out.UIDValidity, UIDNext: out.UIDNext,
		HighestModSeq: out.HighestModSeq, Total: out.Total, More: out.More, Checked: out.Checked, Present: out.Present}
	for _, m := range out.New {
		pg.New = append(pg.New, toModel(p.account, out.Folder, m))
		if m.Calendar != "" {
			if pg.Calendars == nil {
				pg.Calendars = map[uint32]string{}
			}
			pg.Calendars[m.UID] = m.Calendar
		}
	}
	for _, f := range out.Flags {
		pg.Flags = append(pg.Flags, provider.FlagState{UID: f.UID, Seen: f.Seen, Flagged: f.Flagged, Answered: f.Answered, Forwarded: f.Forwarded})
	}
	return pg, nil
}

// FetchThreading asks the child for the threading ids of stored mail.
func (p imapProvider) FetchThreading(ctx context.Context, a *conn.Adapter, folder string, uidValidity uint32, uids [][2]uint32) (uint32, map[uint32]model.Refetched, error) {
	var out imapwire.FetchThreadingOut
	in := imapwire.FetchThreadingIn{Account: p.account, Folder: folder, UIDValidity: uidValidity, UIDs: uids}
	if _, err := provider.Call(ctx, a, imapwire.ToolFetchThreading, in, true, &out, imapwire.Decode); err != nil {
		return 0, nil, err
	}
	ids := make(map[uint32]model.Refetched, len(out.Messages))
	for _, m := range out.Messages {
		ids[m.UID] = model.Refetched{Threading: *threading(&m.Threading),
			Cc: append(make([]model.Address, 0, len(m.Cc)), addrs(m.Cc)...), AttachmentNames: m.AttachmentNames}
	}
	return out.UIDValidity, ids, nil
}

// SpecialFolder asks the child where the account's special folder is.
func (p imapProvider) SpecialFolder(ctx context.Context, a *conn.Adapter, special string) (string, error) {
	var out imapwire.SpecialFolderOut
	if _, err := provider.Call(ctx, a, imapwire.ToolSpecialFolder, imapwire.SpecialFolderIn{Account: p.account, Special: special}, true, &out, imapwire.Decode); err != nil {
		return "", err
	}
	return out.Folder, nil
}

// Count asks the child for the folder's counts (one STATUS).
func (p imapProvider) Count(ctx context.Context, a *conn.Adapter, folder string) (provider.FolderCount, error) {
	var out imapwire.FolderStatusOut
	if _, err := provider.Call(ctx, a, imapwire.ToolFolderStatus, imapwire.FolderStatusIn{Account: p.account, Folder: folder}, true, &out, imapwire.Decode); err != nil {
		return provider.FolderCount{}, err
	}
	return provider.FolderCount{Total: out.Total, Unread: out.Unread}, nil
}

// FetchBodies asks the child for the text of several messages, behind
// the person's own calls (a background call).
func (p imapProvider) FetchBodies(ctx context.Context, a *conn.Adapter, folder string, uidValidity uint32, uids []uint32, maxBytes int64) (provider.FetchedBodies, error) {
	var out imapwire.FetchBodiesOut
	in := imapwire.FetchBodiesIn{Account: p.account, Folder: folder, UIDValidity: uidValidity, UIDs: uids, MaxBytes: maxBytes}
	req := conn.Request{Tool: imapwire.ToolFetchBodies, Args: in, Idempotent: true, Background: true, Payload: maxBytes}
	if _, err := provider.Do(ctx, a, req, &out, imapwire.Decode); err != nil {
		return provider.FetchedBodies{}, err
	}
	got := provider.FetchedBodies{UIDValidity: out.UIDValidity, Gone: out.Gone, Answered: out.Answered, Bytes: out.Bytes}
	for _, b := range out.Bodies {
		id := model.MessageID{Account: p.account, Folder: out.Folder, UIDValidity: out.UIDValidity, UID: b.UID}
		body := model.Body{Message: model.Message{ID: id}, Text: b.Text, FromHTML: b.FromHTML, Problems: b.Problems}
		for _, h := range b.Headers {
			body.Headers = append(body.Headers, model.Header(h))
		}
		got.Bodies = append(got.Bodies, body)
	}
	return got, nil
}
