package serveimap

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
)

// threadingSection is the three threading headers, and nothing else: what
// mail stored before they came with the envelope needs (fetch_threading),
// tens of bytes a message instead of an envelope's hundreds.
var threadingSection = &imap.FetchItemBodySection{
	Specifier: imap.PartSpecifierHeader, HeaderFields: []string{"Message-ID", "In-Reply-To", "References"}, Peek: true,
}

// fetchThreading answers fetch_threading: the threading ids of the uids
// asked about, read from their headers.
func (s *Server) fetchThreading(ctx context.Context, in imapwire.FetchThreadingIn) (imapwire.FetchThreadingOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.FetchThreadingOut{}, "", err
	}
	set, n := imap.UIDSet{}, uint64(0)
	for _, r := range in.UIDs {
		if r[0] == 0 || r[0] > r[1] {
			return imapwire.FetchThreadingOut{}, "", withClass(conn.ClassTool, fmt.Errorf("fetch_threading: uids: range %d:%d is not a uid range", r[0], r[1]))
		}
		n += uint64(r[1]-r[0]) + 1
		set.AddRange(imap.UID(r[0]), imap.UID(r[1]))
	}
	if n > imapwire.MaxThreadingUIDs {
		return imapwire.FetchThreadingOut{}, "", withClass(conn.ClassTool, fmt.Errorf("fetch_threading: uids: %d uids, over the limit of %d", n, imapwire.MaxThreadingUIDs))
	}
	folder := folderOr(in.Folder)
	out := imapwire.FetchThreadingOut{Folder: folder, Messages: []imapwire.ThreadingRow{}}
	err = a.read(ctx, func(c *imapclient.Client) error {
		out.Messages = out.Messages[:0] // a retry starts clean
		sel, err := a.selectFolder(ctx, c, folder)
		if err != nil {
			return err
		}
		out.UIDValidity = sel.UIDValidity
		if sel.UIDValidity != in.UIDValidity || n == 0 {
			return nil
		}
		// The envelope (for Cc) and the structure (for attachment names)
		// come too: rows stored before search need them, once.
		opts := &imap.FetchOptions{UID: true, Envelope: true, BodyStructure: &imap.FetchItemBodyStructure{Extended: true},
			BodySection: []*imap.FetchItemBodySection{threadingSection}}
		return a.fetchEach(ctx, c, set, opts, func(b *imapclient.FetchMessageBuffer) {
			if b.UID != 0 {
				row := imapwire.ThreadingRow{UID: uint32(b.UID), Threading: parseThreading(b.FindBodySection(threadingSection)),
					Cc: []imapwire.Address{}, AttachmentNames: attachmentNames(b.BodyStructure)}
				if b.Envelope != nil {
					row.Cc = append(row.Cc, addresses(b.Envelope.Cc)...)
				}
				out.Messages = append(out.Messages, row)
			}
		})
	})
	if err != nil {
		return imapwire.FetchThreadingOut{}, "", fmt.Errorf("fetch_threading %s/%s: %w", in.Account, folder, err)
	}
	return out, fmt.Sprintf("%s: threading ids of %d messages", folder, len(out.Messages)), nil
}

// parseThreading reads the ids of a header block (folded lines joined):
// the first of each field counts, ids that are not ids are skipped.
func parseThreading(h []byte) imapwire.ThreadHeaders {
	var t imapwire.ThreadHeaders
	var name string
	var value strings.Builder
	seen := map[string]bool{}
	flush := func() {
		if name == "" || seen[name] {
			return
		}
		seen[name] = true
		ids := model.MsgIDList(value.String())
		switch name {
		case "message-id":
			if len(ids) > 0 {
				t.MessageID = ids[0]
			}
		case "in-reply-to":
			if len(ids) > 0 {
				t.InReplyTo = ids[0]
			}
		case "references":
			t.References = ids
		}
	}
	for _, line := range bytes.Split(h, []byte("\n")) {
		line = bytes.TrimRight(line, "\r")
		if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			value.Write(line)
			continue
		}
		flush()
		name = ""
		value.Reset()
		if i := bytes.IndexByte(line, ':'); i > 0 {
			name = strings.ToLower(strings.TrimSpace(string(line[:i])))
			value.Write(line[i+1:])
		}
	}
	flush()
	return t
}

// specialFolder answers special_folder: the name of the account's sent
// (archive, trash, drafts) folder, as find_message's special finds it.
func (s *Server) specialFolderTool(ctx context.Context, in imapwire.SpecialFolderIn) (imapwire.SpecialFolderOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.SpecialFolderOut{}, "", err
	}
	var out imapwire.SpecialFolderOut
	err = a.read(ctx, func(c *imapclient.Client) error {
		out.Folder, err = a.specialFolder(ctx, c, in.Special)
		return err
	})
	if err != nil {
		return imapwire.SpecialFolderOut{}, "", fmt.Errorf("special_folder %s: %w", in.Special, err)
	}
	return out, in.Special + ": " + out.Folder, nil
}
