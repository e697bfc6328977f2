package imapprovider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// The tools sending needs (provider.Mailer), as serve-imap offers them.
var _ provider.Mailer = imapProvider{}

func (p imapProvider) Append(ctx context.Context, a *conn.Adapter, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error) {
	in := imapwire.AppendMessageIn{Account: p.account, Folder: folder, Special: special, Message: string(raw), Flags: flags}
	if !date.IsZero() {
		in.Date = date.Format(time.RFC3339)
	}
	var out imapwire.AppendMessageOut
	// The bound grows with the message, as serve-imap's APPEND deadline does.
	req := conn.Request{Tool: imapwire.ToolAppendMessage, Args: in, Payload: int64(len(raw))}
	if _, err := provider.Do(ctx, a, req, &out, imapwire.Decode); err != nil {
		return model.MessageID{}, maybeDone(err)
	}
	return model.MessageID{Account: p.account, Folder: out.Folder, UIDValidity: out.UIDValidity, UID: out.UID}, nil
}

// maybeDone marks a tool error whose outcome serve-imap called unknown
// (the APPEND may have reached the server before the drop): the conn
// layer sees only an IsError result, which it takes as not done.
func maybeDone(err error) error {
	var ce *conn.Error
	if !errors.As(err, &ce) || ce.Result == nil || ce.MaybeDone {
		return err
	}
	var info imapwire.ErrorInfo
	if imapwire.Decode(ce.Result, &info) == nil && info.Outcome == imapwire.OutcomeUnknown {
		cp := *ce
		cp.MaybeDone = true
		return &cp
	}
	return err
}

func (p imapProvider) Delete(ctx context.Context, a *conn.Adapter, folder string, uv uint32, uids []uint32) ([]model.ItemResult, error) {
	if err := p.checkValidity(imapwire.ToolDeleteMessages, folder, uv); err != nil {
		return nil, err
	}
	var out imapwire.WriteOut
	in := imapwire.DeleteMessagesIn{Account: p.account, Folder: folder, UIDValidity: uv, UIDs: uids}
	if _, err := provider.Call(ctx, a, imapwire.ToolDeleteMessages, in, false, &out, imapwire.Decode); err != nil {
		return nil, err
	}
	return p.results(out), nil
}

func (p imapProvider) Part(ctx context.Context, a *conn.Adapter, id model.MessageID, index int) (model.Part, error) {
	if err := p.checkValidity(imapwire.ToolGetPart, id.Folder, id.UIDValidity); err != nil {
		return model.Part{}, err
	}
	var out imapwire.GetPartOut
	in := imapwire.GetPartIn{Account: p.account, Folder: id.Folder, UID: id.UID, Index: index}
	// The part's size is unknown until serve-imap has read it: the bound
	// is that of the biggest part it returns, as its own fetch deadline is.
	req := conn.Request{Tool: imapwire.ToolGetPart, Args: in, Idempotent: true, Payload: imapwire.MaxPartBytes}
	if _, err := provider.Do(ctx, a, req, &out, imapwire.Decode); err != nil {
		return model.Part{}, err
	}
	if out.UIDValidity != id.UIDValidity {
		// The folder was recreated: the uid may name another message.
		return model.Part{}, &conn.Error{Account: p.account, Op: imapwire.ToolGetPart, Class: conn.ClassTool,
			Err: fmt.Errorf("folder %s changed (UIDVALIDITY %d, was %d): reload it", model.Quote(id.Folder), out.UIDValidity, id.UIDValidity)}
	}
	return model.Part{Name: out.Name, Type: out.Type, Data: out.Data}, nil
}

func (p imapProvider) FindIn(ctx context.Context, a *conn.Adapter, folder, special, messageID string) (model.MessageID, bool, error) {
	in := imapwire.FindMessageIn{Account: p.account, Folder: folder, Special: special, MessageID: messageID}
	var out imapwire.FindMessageOut
	if _, err := provider.Call(ctx, a, imapwire.ToolFindMessage, in, true, &out, imapwire.Decode); err != nil {
		return model.MessageID{}, false, err
	}
	if len(out.UIDs) == 0 {
		return model.MessageID{}, false, nil
	}
	// Exact matches only (find_message); of several copies, the newest.
	return model.MessageID{Account: p.account, Folder: out.Folder, UIDValidity: out.UIDValidity, UID: out.UIDs[len(out.UIDs)-1]}, true, nil
}

func (p imapProvider) Mark(ctx context.Context, a *conn.Adapter, id model.MessageID, mark provider.Mark) (model.ItemResult, error) {
	if err := p.checkValidity(imapwire.ToolSetFlags, id.Folder, id.UIDValidity); err != nil {
		return model.ItemResult{}, err
	}
	yes := true
	in := imapwire.SetFlagsIn{Account: p.account, Folder: id.Folder, UIDs: []uint32{id.UID}, UIDValidity: id.UIDValidity}
	switch mark {
	case provider.MarkAnswered:
		in.Answered = &yes
	case provider.MarkForwarded:
		in.Forwarded = &yes
	default:
		return model.ItemResult{}, fmt.Errorf("unknown mark %d", mark)
	}
	var out imapwire.WriteOut
	if _, err := provider.Call(ctx, a, imapwire.ToolSetFlags, in, false, &out, imapwire.Decode); err != nil {
		return model.ItemResult{}, err
	}
	res := p.results(out)
	if len(res) != 1 {
		return model.ItemResult{}, &conn.Error{Account: p.account, Op: imapwire.ToolSetFlags, Class: conn.ClassProtocol, Err: fmt.Errorf("%d results for one uid", len(res))}
	}
	return res[0], nil
}

var _ provider.SentChecker = imapProvider{}

// SentTo asks serve-imap's sent_to; a read, so retried once after a drop.
func (p imapProvider) SentTo(ctx context.Context, a *conn.Adapter, addrs, own []string) ([]string, error) {
	var out imapwire.SentToOut
	in := imapwire.SentToIn{Account: p.account, Addresses: addrs, Own: own}
	if _, err := provider.Call(ctx, a, imapwire.ToolSentTo, in, true, &out, imapwire.Decode); err != nil {
		return nil, err
	}
	return out.Known, nil
}

var _ provider.SpecialFinder = imapProvider{}

// SpecialFolders asks serve-imap's special_folders; a read.
func (p imapProvider) SpecialFolders(ctx context.Context, a *conn.Adapter) (provider.Specials, error) {
	var out imapwire.SpecialFoldersOut
	if _, err := provider.Call(ctx, a, imapwire.ToolSpecialFolders, imapwire.AccountIn{Account: p.account}, true, &out, imapwire.Decode); err != nil {
		return provider.Specials{}, err
	}
	return provider.Specials{Archive: out.Archive, Trash: out.Trash, Sent: out.Sent, Drafts: out.Drafts, Delimiter: out.Delimiter, Walled: out.Walled}, nil
}

var _ provider.PartSaver = imapProvider{}

// SavePart asks serve-imap's save_part. Not retried after a drop: the
// file may be there, half written, and the caller starts over in a
// fresh folder.
func (p imapProvider) SavePart(ctx context.Context, a *conn.Adapter, id model.MessageID, index int, dir, name string) (model.Attachment, error) {
	if err := p.checkValidity(imapwire.ToolSavePart, id.Folder, id.UIDValidity); err != nil {
		return model.Attachment{}, err
	}
	var out imapwire.SavePartOut
	in := imapwire.SavePartIn{Account: p.account, Folder: id.Folder, UID: id.UID, Index: index, Dir: dir, Name: name}
	req := conn.Request{Tool: imapwire.ToolSavePart, Args: in, Payload: imapwire.MaxPartBytes}
	if _, err := provider.Do(ctx, a, req, &out, imapwire.Decode); err != nil {
		return model.Attachment{}, err
	}
	if out.UIDValidity != id.UIDValidity {
		return model.Attachment{}, &conn.Error{Account: p.account, Op: imapwire.ToolSavePart, Class: conn.ClassTool,
			Err: fmt.Errorf("folder %s changed (UIDVALIDITY %d, was %d): reload it", model.Quote(id.Folder), out.UIDValidity, id.UIDValidity)}
	}
	return model.Attachment{Name: out.Name, Type: out.Type, Size: out.Size}, nil
}
