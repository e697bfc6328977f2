package serveimap

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
)

// createFolder makes a folder when it is missing (the snooze folder,
// "created if missing"). It is idempotent, so it may be retried after a
// drop: it looks first, and a CREATE refused because another client made
// the folder meanwhile is looked at again, not reported as a failure.
func (s *Server) createFolder(ctx context.Context, in imapwire.CreateFolderIn) (imapwire.CreateFolderOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.CreateFolderOut{}, "", err
	}
	name := strings.TrimSpace(in.Folder)
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return imapwire.CreateFolderOut{}, "", withClass(conn.ClassTool, errors.New("create_folder: folder must be a non-empty name without control characters"))
	}
	if model.SameFolder(name, "INBOX") {
		return imapwire.CreateFolderOut{Folder: "INBOX"}, "INBOX exists", nil
	}
	out := imapwire.CreateFolderOut{Folder: name}
	err = a.read(ctx, func(c *imapclient.Client) error {
		exists := func() (bool, error) {
			var list []*imap.ListData
			err := a.cmd(ctx, c, func() (err error) { list, err = c.List("", name, nil).Collect(); return err })
			return len(list) > 0, err
		}
		if ok, err := exists(); err != nil || ok {
			return err
		}
		cerr := a.cmd(ctx, c, func() error { return c.Create(name, nil).Wait() })
		if cerr == nil {
			out.Created = true
			return nil
		}
		var ie *imap.Error
		if !errors.As(cerr, &ie) {
			return cerr // the connection: read retries once on a fresh one
		}
		if ok, err := exists(); err != nil || ok {
			return err // made by another client meanwhile
		}
		return withClass(conn.ClassTool, cerr)
	})
	if err != nil {
		return imapwire.CreateFolderOut{}, "", fmt.Errorf("create folder %s in %s: %w", model.Quote(name), in.Account, err)
	}
	return out, map[bool]string{true: "created " + name, false: name + " exists"}[out.Created], nil
}
