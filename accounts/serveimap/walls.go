package serveimap

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
)

// special_folders tells a face where the account's Sent and Drafts are,
// by every sign at once, so that it can keep agents out of them: sent_to
// counts Sent mail as the account's own, and a draft in Drafts is taken
// for the person's. The resolution is the server's (special-use, the
// configured names, the LISTed names), never a guess from a name alone.

// walled is what the LIST that filled account.special said of Sent and
// Drafts: the hierarchy delimiter, and every folder that is one of them by
// its special-use attribute or a usual name.
type walled struct {
	delim string
	names []string
}

// walledOf reads list: \Sent and \Drafts folders, and the folders named
// as fallbackNames' sent and drafts (in any case).
func walledOf(list []*imap.ListData) walled {
	var w walled
	usual := append(slices.Clone(fallbackNames[imapwire.SpecialSent]), fallbackNames[imapwire.SpecialDrafts]...)
	for _, d := range list {
		if d.Delim != 0 && (w.delim == "" || strings.EqualFold(d.Mailbox, "INBOX")) {
			w.delim = string(d.Delim)
		}
		byName := slices.ContainsFunc(usual, func(n string) bool { return strings.EqualFold(n, d.Mailbox) })
		if byName || hasAttr(d, imap.MailboxAttrSent) || hasAttr(d, imap.MailboxAttrDrafts) {
			w.names = append(w.names, d.Mailbox)
		}
	}
	return w
}

func (s *Server) specialFolders(ctx context.Context, in imapwire.AccountIn) (imapwire.SpecialFoldersOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.SpecialFoldersOut{}, "", err
	}
	var out imapwire.SpecialFoldersOut
	err = a.read(ctx, func(c *imapclient.Client) error {
		if err := a.learnSpecial(ctx, c); err != nil {
			return err
		}
		// A kind with no folder is "", not an error: most accounts lack
		// one of the four, and the face still needs the others.
		for _, k := range []struct {
			kind string
			to   *string
		}{{imapwire.SpecialArchive, &out.Archive}, {imapwire.SpecialTrash, &out.Trash}, {imapwire.SpecialSent, &out.Sent}, {imapwire.SpecialDrafts, &out.Drafts}} {
			*k.to, _ = a.specialFolder(ctx, c, k.kind)
		}
		out.Delimiter = a.walled.delim
		out.Walled = []string{}
		for _, f := range append([]string{out.Sent, out.Drafts, a.cfg.SentFolder, a.cfg.DraftsFolder}, a.walled.names...) {
			if f != "" && !slices.Contains(out.Walled, f) {
				out.Walled = append(out.Walled, f)
			}
		}
		return nil
	})
	if err != nil {
		return imapwire.SpecialFoldersOut{}, "", fmt.Errorf("special_folders of %s: %w", in.Account, err)
	}
	return out, fmt.Sprintf("sent %q, drafts %q, archive %q, trash %q; walled %q", out.Sent, out.Drafts, out.Archive, out.Trash, out.Walled), nil
}
