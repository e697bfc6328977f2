package serveimap

import (
	"context"
	"fmt"
	"io"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
	"unibox/conn"
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
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil {
			return err
		}
		opts := *fetchSummary
		// The parsed body lists the attachments; BODYSTRUCTURE would only
		// give a server one more way to choke on a broken message.
		opts.BodyStructure = nil
		opts.BodySection = []*imap.FetchItemBodySection{{Peek: true}}
		found := false
		err = a.cmd(ctx, c, func() error {
			cmd := c.Fetch(imap.UIDSetNum(imap.UID(in.UID)), &opts)
			for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
				var buf imapclient.FetchMessageBuffer
				var parsed mailtext.Message
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
					case imapclient.FetchItemDataBodyStructure:
						buf.BodyStructure = it.BodyStructure
					case imapclient.FetchItemDataBodySection:
						if it.Literal != nil {
							parsed = mailtext.Parse(it.Literal, mailtext.Options{})
							_, _ = io.Copy(io.Discard, it.Literal)
						}
					}
				}
				if buf.UID != imap.UID(in.UID) {
					continue
				}
				found = true
				out.Message = summary(in.Account, folder, sel.UIDValidity, &buf)
				out.Body, out.BodyIsHTML, out.Problems = parsed.Text, parsed.FromHTML, parsed.Problems
				out.Headers = make([]imapwire.Header, 0, len(parsed.Headers))
				for _, h := range parsed.Headers {
					out.Headers = append(out.Headers, imapwire.Header{Name: h.Name, Value: h.Value})
				}
				out.Attachments = make([]imapwire.Attachment, 0, len(parsed.Attachments))
				for _, at := range parsed.Attachments {
					out.Attachments = append(out.Attachments, imapwire.Attachment{Name: at.Name, Type: at.Type, Size: at.Size})
				}
				out.HasAttachments = len(out.Attachments) > 0
			}
			return cmd.Close()
		})
		if err != nil {
			return err
		}
		if !found {
			return withClass(conn.ClassTool, fmt.Errorf("no message with uid %d in %s (uidvalidity %d)", in.UID, folder, sel.UIDValidity))
		}
		return nil
	})
	if err != nil {
		return imapwire.GetMessageOut{}, "", fmt.Errorf("get %s/%s/%d: %w", in.Account, folder, in.UID, err)
	}
	return out, fmt.Sprintf("%q from %s, %d bytes of text, %d attachments", out.Subject, out.From.Address, len(out.Body), len(out.Attachments)), nil
}
