package serveimap

import (
	"context"
	"fmt"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
)

// folderStatus answers folder_status: STATUS (MESSAGES UNSEEN), one
// command whatever the folder's size, so a face whose store holds only
// the newest page of a big folder still says how much of it is unread.
// STATUS on the selected folder is allowed (RFC 9051 6.3.11 only advises
// against it): the server answers from the same state a SELECT would.
func (s *Server) folderStatus(ctx context.Context, in imapwire.FolderStatusIn) (imapwire.FolderStatusOut, string, error) {
	if err := model.CheckBytes("folder", in.Folder, model.MaxFolderBytes); err != nil {
		return imapwire.FolderStatusOut{}, "", withClass(conn.ClassTool, err)
	}
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.FolderStatusOut{}, "", err
	}
	folder := folderOr(in.Folder)
	out := imapwire.FolderStatusOut{Folder: folder}
	err = a.read(ctx, func(c *imapclient.Client) error {
		var st *imap.StatusData
		if err := a.cmd(ctx, c, func() (err error) {
			st, err = c.Status(folder, &imap.StatusOptions{NumMessages: true, NumUnseen: true}).Wait()
			return err
		}); err != nil {
			return err
		}
		if st.NumMessages == nil || st.NumUnseen == nil {
			return withClass(conn.ClassProtocol, fmt.Errorf("the server's STATUS left out MESSAGES or UNSEEN"))
		}
		out.Total, out.Unread = *st.NumMessages, *st.NumUnseen
		return nil
	})
	if err != nil {
		return imapwire.FolderStatusOut{}, "", fmt.Errorf("status of %s/%s: %w", in.Account, folder, err)
	}
	return out, fmt.Sprintf("%s: %d messages, %d unread", folder, out.Total, out.Unread), nil
}
