package accounts

import (
	"context"
	"fmt"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// What sending needs of an account's mail server: the copy in Sent, the
// draft postponed to Drafts and its removal, the original's attachments
// for a forward, and the mark on the original. Accounts whose provider
// cannot (provider.Mailer) say so with ErrUnsupported.

// mailer is the provider's Mailer, or the error saying it has none.
func (a *Account) mailer(op string) (provider.Mailer, error) {
	m, ok := a.ops.(provider.Mailer)
	if !ok {
		return nil, provider.Unsupported(a.name, op, "this account's provider cannot store, delete or mark mail for sending")
	}
	return m, nil
}

// Append stores raw in folder, or in the special folder special ("sent",
// "drafts") when folder is "", with flags (e.g. `\Seen`, `\Draft`). The
// id's UID is 0 when the server does not say it. Never retried: an error
// for which conn.MaybeDone holds may have stored it, and FindMessageID
// on its Message-ID tells.
func (a *Account) Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error) {
	m, err := a.mailer(imapwire.ToolAppendMessage)
	if err != nil {
		return model.MessageID{}, err
	}
	if err := a.checkInputs(imapwire.ToolAppendMessage, nil, folder); err != nil {
		return model.MessageID{}, err
	}
	// The largest message the provider's server takes (the Spec's Limits;
	// serve-imap refuses more as well), refused before any byte leaves.
	if most := a.sending.limits.AppendBytes; most > 0 && len(raw) > most {
		return model.MessageID{}, &conn.Error{Account: a.name, Op: imapwire.ToolAppendMessage, Class: conn.ClassTool,
			Err: &model.LimitError{Field: "message", Got: len(raw), Limit: most, Unit: "bytes"}}
	}
	id, err := m.Append(ctx, a.adapter, folder, special, raw, flags, date)
	return id, a.scrub(err)
}

// DeleteMessages removes exactly uids of folder (a replaced or sent
// draft), one result per uid.
func (a *Account) DeleteMessages(ctx context.Context, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error) {
	m, err := a.mailer(imapwire.ToolDeleteMessages)
	if err != nil {
		return nil, err
	}
	if err := a.checkInputs(imapwire.ToolDeleteMessages, nil, folder); err != nil {
		return nil, err
	}
	res, err := m.Delete(ctx, a.adapter, folder, uidValidity, uids)
	return a.scrubResults(res), a.scrub(err)
}

// Part is one attachment of a message, index counted as in
// Body.Attachments.
func (a *Account) Part(ctx context.Context, id model.MessageID, index int) (model.Part, error) {
	m, err := a.mailer(imapwire.ToolGetPart)
	if err != nil {
		return model.Part{}, err
	}
	if err := a.checkInputs(imapwire.ToolGetPart, nil, id.Folder); err != nil {
		return model.Part{}, err
	}
	p, err := m.Part(ctx, a.adapter, id, index)
	return p, a.scrub(err)
}

// SavePart writes attachment index of id (counted as in
// Body.Attachments), decoded, into the new file dir/name, where dir is a
// private folder (0700) the caller made: the provider streams it there
// (accounts/attach places it afterwards).
func (a *Account) SavePart(ctx context.Context, id model.MessageID, index int, dir, name string) (model.Attachment, error) {
	s, ok := a.ops.(provider.PartSaver)
	if !ok {
		return model.Attachment{}, provider.Unsupported(a.name, imapwire.ToolSavePart, "this account's provider cannot save attachments")
	}
	if err := a.checkInputs(imapwire.ToolSavePart, nil, id.Folder); err != nil {
		return model.Attachment{}, err
	}
	at, err := s.SavePart(ctx, a.adapter, id, index, dir, name)
	return at, a.scrub(err)
}

// FindMessageID looks messageID up in folder, or in the special folder
// ("sent", "drafts", "archive", "trash") when folder is "": is the copy
// already in Sent?
func (a *Account) FindMessageID(ctx context.Context, folder, special, messageID string) (model.MessageID, bool, error) {
	m, err := a.mailer(imapwire.ToolFindMessage)
	if err != nil {
		return model.MessageID{}, false, err
	}
	if err := a.checkInputs(imapwire.ToolFindMessage, nil, folder); err != nil {
		return model.MessageID{}, false, err
	}
	if _, ok := model.CleanMsgID(messageID); !ok {
		return model.MessageID{}, false, &conn.Error{Account: a.name, Op: imapwire.ToolFindMessage, Class: conn.ClassTool,
			Err: fmt.Errorf("message_id %s is not a Message-ID", model.Quote(messageID))}
	}
	id, found, err := m.FindIn(ctx, a.adapter, folder, special, messageID)
	return id, found, a.scrub(err)
}

// MarkAnswered sets \Answered on the original of a sent reply.
func (a *Account) MarkAnswered(ctx context.Context, id model.MessageID) (model.ItemResult, error) {
	return a.mark(ctx, id, provider.MarkAnswered)
}

// MarkForwarded sets $Forwarded on the original of a sent forward; a
// folder that cannot keep keywords answers ResultFailed, saying so.
func (a *Account) MarkForwarded(ctx context.Context, id model.MessageID) (model.ItemResult, error) {
	return a.mark(ctx, id, provider.MarkForwarded)
}

// mark is absolute, so repeating it after an unknown outcome is harmless;
// still, no layer repeats it on its own. Once the server has it, the
// stored row gets it too (cache.marked).
func (a *Account) mark(ctx context.Context, id model.MessageID, mark provider.Mark) (model.ItemResult, error) {
	m, err := a.mailer(imapwire.ToolSetFlags)
	if err != nil {
		return model.ItemResult{}, err
	}
	if err := a.checkInputs(imapwire.ToolSetFlags, nil, id.Folder); err != nil {
		return model.ItemResult{}, err
	}
	r, err := m.Mark(ctx, a.adapter, id, mark)
	if err == nil && r.Kind == model.ResultDone {
		a.cache.marked(id, mark)
	}
	r.Err = a.Redact(r.Err)
	return r, a.scrub(err)
}
