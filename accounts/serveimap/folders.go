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
)

var specialAttrs = map[imap.MailboxAttr]string{
	imap.MailboxAttrArchive: imapwire.SpecialArchive,
	imap.MailboxAttrTrash:   imapwire.SpecialTrash,
	imap.MailboxAttrJunk:    imapwire.SpecialJunk,
	imap.MailboxAttrSent:    imapwire.SpecialSent,
	imap.MailboxAttrDrafts:  imapwire.SpecialDrafts,
}

// fallbackNames are tried, in order, when no folder has the special-use
// attribute: the first that exists wins (iCloud says "Sent Messages",
// Outlook "Sent Items", Gmail "[Gmail]/Sent Mail", Courier "INBOX.Sent").
var fallbackNames = map[string][]string{
	imapwire.SpecialArchive: {"Archive", "Archives", "INBOX.Archive", "INBOX/Archive", "[Gmail]/All Mail", "Archived"},
	imapwire.SpecialTrash:   {"Trash", "Deleted Items", "Deleted Messages", "INBOX.Trash", "INBOX/Trash", "[Gmail]/Trash", "Bin"},
	imapwire.SpecialJunk:    {"Junk", "Spam", "Junk E-mail", "INBOX.Junk", "[Gmail]/Spam"},
	imapwire.SpecialSent:    {"Sent", "Sent Messages", "Sent Items", "[Gmail]/Sent Mail", "INBOX.Sent"},
	imapwire.SpecialDrafts:  {"Drafts", "[Gmail]/Drafts", "INBOX.Drafts"},
}

// listMailboxes runs LIST with special-use attributes when the server has them.
func (a *account) listMailboxes(ctx context.Context, c *imapclient.Client) ([]*imap.ListData, error) {
	var opts *imap.ListOptions
	if capable(c, imap.CapSpecialUse) {
		opts = &imap.ListOptions{ReturnSpecialUse: true}
	}
	var list []*imap.ListData
	err := a.cmd(ctx, c, func() (err error) {
		list, err = c.List("", "*", opts).Collect()
		return err
	})
	return list, err
}

func specialUse(d *imap.ListData) string {
	for _, at := range d.Attrs {
		if k, ok := specialAttrs[at]; ok {
			return k
		}
	}
	return ""
}

// specialFolder finds the folder for kind ("archive", "trash", "sent",
// "drafts"): the account's override, else the server's special-use
// attribute (for the archive, \Archive, else \All), else the first
// conventional name, in fallbackNames' order, that exists.
func (a *account) specialFolder(ctx context.Context, c *imapclient.Client, kind string) (string, error) {
	override, known := map[string]string{imapwire.SpecialArchive: a.cfg.ArchiveFolder, imapwire.SpecialTrash: a.cfg.TrashFolder,
		imapwire.SpecialSent: a.cfg.SentFolder, imapwire.SpecialDrafts: a.cfg.DraftsFolder}[kind]
	switch {
	case !known:
		return "", withClass(conn.ClassTool, fmt.Errorf("special %q: want archive, trash, sent or drafts", kind))
	case override != "":
		return override, nil
	}
	if err := a.learnSpecial(ctx, c); err != nil {
		return "", err
	}
	if f := a.special[kind]; f != "" {
		return f, nil
	}
	return "", withClass(conn.ClassTool, fmt.Errorf("no %s folder found on the server (set %s_folder for this account)", kind, kind))
}

// learnSpecial fills a.special and a.walled from one LIST, once per
// connection.
func (a *account) learnSpecial(ctx context.Context, c *imapclient.Client) error {
	if a.special == nil {
		list, err := a.listMailboxes(ctx, c)
		if err != nil {
			return err
		}
		a.walled = walledOf(list)
		a.special = map[string]string{}
		for _, d := range list {
			if k := specialUse(d); k != "" && a.special[k] == "" {
				a.special[k] = d.Mailbox
			}
		}
		// Gmail has no \Archive: archiving is leaving the inbox, and the
		// mail stays in \All ("[Gmail]/All Mail", or its localized name).
		if a.special[imapwire.SpecialArchive] == "" {
			for _, d := range list {
				if slices.Contains(d.Attrs, imap.MailboxAttrAll) {
					a.special[imapwire.SpecialArchive] = d.Mailbox
					break
				}
			}
		}
		for k, names := range fallbackNames {
			if a.special[k] != "" {
				continue
			}
			// The names' order decides, not the server's listing order.
			for _, n := range names {
				if i := slices.IndexFunc(list, func(d *imap.ListData) bool {
					return strings.EqualFold(d.Mailbox, n) && !hasAttr(d, imap.MailboxAttrNoSelect)
				}); i >= 0 {
					a.special[k] = list[i].Mailbox
					break
				}
			}
		}
	}
	return nil
}

func (s *Server) listFolders(ctx context.Context, in imapwire.AccountIn) (imapwire.ListFoldersOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.ListFoldersOut{}, "", err
	}
	var out imapwire.ListFoldersOut
	err = a.read(ctx, func(c *imapclient.Client) error {
		list, err := a.listMailboxes(ctx, c)
		if err != nil {
			return err
		}
		out.Folders = out.Folders[:0]
		for _, d := range list {
			if hasAttr(d, imap.MailboxAttrNoSelect) || hasAttr(d, imap.MailboxAttrNonExistent) {
				continue
			}
			f := imapwire.Folder{Name: d.Mailbox, SpecialUse: specialUse(d)}
			if d.Delim != 0 {
				f.Delimiter = string(d.Delim)
			}
			var st *imap.StatusData
			err := a.cmd(ctx, c, func() (err error) {
				st, err = c.Status(d.Mailbox, &imap.StatusOptions{NumMessages: true, NumUnseen: true}).Wait()
				return err
			})
			var ie *imap.Error
			if errors.As(err, &ie) {
				continue // vanished between LIST and STATUS: skip it, not the list
			}
			if err != nil {
				return err
			}
			if st.NumMessages != nil {
				f.Total = *st.NumMessages
			}
			if st.NumUnseen != nil {
				f.Unread = *st.NumUnseen
			}
			// The name is returned as the server has it: it addresses the folder. The UI sanitises what it shows.
			f.Name = strings.ToValidUTF8(f.Name, "\uFFFD")
			out.Folders = append(out.Folders, f)
		}
		return nil
	})
	if err != nil {
		return imapwire.ListFoldersOut{}, "", fmt.Errorf("list folders of %s: %w", in.Account, err)
	}
	return out, fmt.Sprintf("%d folders", len(out.Folders)), nil
}

func hasAttr(d *imap.ListData, attr imap.MailboxAttr) bool {
	for _, a := range d.Attrs {
		if strings.EqualFold(string(a), string(attr)) {
			return true
		}
	}
	return false
}
