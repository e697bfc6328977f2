package serveimap

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
	"unibox/conn"
	"unibox/model"
)

// getMessage fetches one message with BODY.PEEK[] (never sets \Seen) and
// streams it through the tolerant parser, so a multi-megabyte attachment
// is counted, not held.
func (s *Server) getMessage(ctx context.Context, in imapwire.GetMessageIn) (imapwire.GetMessageOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.GetMessageOut{}, "", err
	}
	if in.UID == 0 {
		return imapwire.GetMessageOut{}, "", withClass(conn.ClassTool, fmt.Errorf("get_message: uid is required"))
	}
	folder := folderOr(in.Folder)
	var out imapwire.GetMessageOut
	err = a.read(ctx, func(c *imapclient.Client) error {
		sel, buf, parsed, err := a.fetchParsed(ctx, c, folder, in.UID, mailtext.Options{Raw: []string{"In-Reply-To", "References"}})
		if err != nil {
			return err
		}
		out.Message = summary(in.Account, folder, sel.UIDValidity, buf, nil)
		answerFields(&out, buf.Envelope, parsed)
		out.Body, out.BodyIsHTML, out.Problems = parsed.Text, parsed.FromHTML, parsed.Problems
		out.Calendar = parsed.Calendar
		out.Headers = make([]imapwire.Header, 0, len(parsed.Headers))
		for _, h := range parsed.Headers {
			out.Headers = append(out.Headers, imapwire.Header{Name: h.Name, Value: h.Value})
		}
		out.Attachments = make([]imapwire.Attachment, 0, len(parsed.Attachments))
		for _, at := range parsed.Attachments {
			out.Attachments = append(out.Attachments, imapwire.Attachment{Name: at.Name, Type: at.Type, Size: at.Size})
		}
		out.HasAttachments = len(out.Attachments) > 0
		return nil
	})
	if err != nil {
		return imapwire.GetMessageOut{}, "", fmt.Errorf("get %s/%s/%d: %w", in.Account, folder, in.UID, err)
	}
	return out, fmt.Sprintf("%q from %s, %d bytes of text, %d attachments", out.Subject, out.From.Address, len(out.Body), len(out.Attachments)), nil
}

// fetchParsed selects folder and fetches uid's summary and whole message
// (BODY.PEEK[]), streamed through the tolerant parser with opts: the one
// parse behind get_message and get_part, so that an attachment's index
// means the same in both.
func (a *account) fetchParsed(ctx context.Context, c *imapclient.Client, folder string, uid uint32, opts mailtext.Options) (*imap.SelectData, *imapclient.FetchMessageBuffer, mailtext.Message, error) {
	var parsed mailtext.Message
	sel, err := a.selectFolder(ctx, c, folder)
	if err != nil {
		return nil, nil, parsed, err
	}
	fo := *fetchSummary
	// The parsed body lists the attachments; BODYSTRUCTURE would only
	// give a server one more way to choke on a broken message.
	fo.BodyStructure = nil
	fo.BodySection = []*imap.FetchItemBodySection{{Peek: true}}
	var found *imapclient.FetchMessageBuffer
	err = a.cmd(ctx, c, func() error {
		cmd := c.Fetch(imap.UIDSetNum(imap.UID(uid)), &fo)
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			var buf imapclient.FetchMessageBuffer
			var p mailtext.Message
			for item := msg.Next(); item != nil; item = msg.Next() {
				switch it := item.(type) {
				case imapclient.FetchItemDataUID:
					buf.UID = it.UID
				case imapclient.FetchItemDataFlags:
					buf.Flags = it.Flags
				case imapclient.FetchItemDataEnvelope:
					buf.Envelope = it.Envelope
				case imapclient.FetchItemDataInternalDate:
					buf.InternalDate = it.Time
				case imapclient.FetchItemDataRFC822Size:
					buf.RFC822Size = it.Size
				case imapclient.FetchItemDataBodySection:
					if it.Literal != nil {
						p = mailtext.Parse(it.Literal, opts)
						_, _ = io.Copy(io.Discard, it.Literal)
					}
				}
			}
			if buf.UID == imap.UID(uid) {
				found, parsed = &buf, p
			}
		}
		return cmd.Close()
	})
	if err != nil {
		return nil, nil, parsed, err
	}
	if found == nil {
		return nil, nil, parsed, withClass(conn.ClassTool, fmt.Errorf("no message with uid %d in %s (uidvalidity %d)", uid, folder, sel.UIDValidity))
	}
	return sel, found, parsed, nil
}

// answerFields fills what a reply needs. Cc comes from the envelope, and
// Bcc, which only a kept copy (a draft, Sent) has, for reopening a draft.
// Reply-To too, but only when the message has the header: a server fills
// the envelope's reply-to with From when it is missing (RFC 3501 7.4.2),
// and reply_to would then claim a header the message does not have. The
// ids are read from the headers (References is no envelope field) and
// kept only where they are ids (model.MsgIDList): they become header
// values of the reply.
func answerFields(out *imapwire.GetMessageOut, env *imap.Envelope, parsed mailtext.Message) {
	out.ReplyTo, out.Cc = []imapwire.Address{}, []imapwire.Address{}
	var inReplyTo, references string
	var hasReplyTo, seenIRT, seenRefs bool
	for _, h := range parsed.Headers {
		if strings.EqualFold(h.Name, "Reply-To") {
			hasReplyTo = true
		}
	}
	// The ids as written, not the sanitised display text: an id with a
	// control byte in it is refused, never passed on with the byte
	// silently taken out (a different id).
	for _, h := range parsed.Raw {
		switch {
		case strings.EqualFold(h.Name, "In-Reply-To") && !seenIRT:
			inReplyTo, seenIRT = h.Value, true
		case strings.EqualFold(h.Name, "References") && !seenRefs:
			references, seenRefs = h.Value, true
		}
	}
	if env != nil {
		out.Cc = addresses(env.Cc)
		if len(env.Bcc) > 0 {
			out.Bcc = addresses(env.Bcc)
		}
		if hasReplyTo {
			out.ReplyTo = addresses(env.ReplyTo)
		}
	}
	if ids := model.MsgIDList(inReplyTo); len(ids) > 0 {
		out.InReplyTo = ids[0]
	}
	out.References = model.MsgIDList(references)
}
