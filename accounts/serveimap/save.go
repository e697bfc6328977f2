package serveimap

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
	"unibox/conn"
	"unibox/model"
)

// savePart is save_part: get_part's attachment, written decoded into a
// new file as the message streams past, never held (get_part's answer is
// one base64 JSON value, held whole in both processes). The parent names
// the file inside a private folder it made; anything else is refused.
func (s *Server) savePart(ctx context.Context, in imapwire.SavePartIn) (imapwire.SavePartOut, string, error) {
	a, err := s.account(in.Account)
	if err != nil {
		return imapwire.SavePartOut{}, "", err
	}
	if in.UID == 0 || in.Index < 0 {
		return imapwire.SavePartOut{}, "", withClass(conn.ClassTool, fmt.Errorf("save_part: uid is required and index (%d) counts from 0", in.Index))
	}
	root, f, err := createIn(in.Dir, in.Name)
	if err != nil {
		return imapwire.SavePartOut{}, "", withClass(conn.ClassTool, fmt.Errorf("save_part: %w", err))
	}
	defer root.Close()
	done := false
	defer func() {
		f.Close()
		if !done {
			_ = root.Remove(in.Name) // no half-written attachment is left
		}
	}()
	folder := folderOr(in.Folder)
	var out imapwire.SavePartOut
	ctx = withTransfer(ctx, s.maxPart())
	err = a.read(ctx, func(c *imapclient.Client) error {
		// A read retried after a drop starts the file over.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if err := f.Truncate(0); err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 64<<10)
		keep := &mailtext.Keep{Index: in.Index, Max: s.maxPart(), W: w}
		sel, _, parsed, err := a.fetchParsed(ctx, c, folder, in.UID, mailtext.Options{Keep: keep})
		if err != nil {
			return err
		}
		if keep.Err == nil {
			keep.Err = w.Flush()
		}
		switch {
		case !keep.Found || in.Index >= len(parsed.Attachments):
			return withClass(conn.ClassTool, fmt.Errorf("index %d: the message has %d attachments", in.Index, len(parsed.Attachments)))
		case keep.TooBig:
			return withClass(conn.ClassTool, fmt.Errorf("index %d: attachment %s is %d bytes, over the limit of %d bytes",
				in.Index, model.Quote(parsed.Attachments[in.Index].Name), parsed.Attachments[in.Index].Size, s.maxPart()))
		case keep.Err != nil:
			return withClass(conn.ClassTool, fmt.Errorf("writing %s: %w", model.Quote(in.Name), keep.Err))
		}
		at := parsed.Attachments[in.Index]
		out = imapwire.SavePartOut{UIDValidity: sel.UIDValidity, Name: at.Name, Type: at.Type, Size: keep.N, Path: filepath.Join(in.Dir, in.Name)}
		return nil
	})
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return imapwire.SavePartOut{}, "", fmt.Errorf("save part %d of %s/%s/%d: %w", in.Index, in.Account, folder, in.UID, err)
	}
	done = true
	return out, fmt.Sprintf("attachment %d: %s, %s, %d bytes written to %s", in.Index, out.Name, out.Type, out.Size, out.Path), nil
}

// createIn creates the file name in dir for save_part, or says why not:
// dir must be an absolute path to a folder no one else may enter (mode
// 0700, not a symlink: the parent made it), name one path element, and
// the file new (O_EXCL, 0600). os.Root keeps the open inside dir even
// when something in it is swapped for a symlink.
func createIn(dir, name string) (*os.Root, *os.File, error) {
	if !filepath.IsAbs(dir) {
		return nil, nil, fmt.Errorf("dir %s is not an absolute path", model.Quote(dir))
	}
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("dir: %w", err)
	case !fi.IsDir():
		return nil, nil, fmt.Errorf("dir %s is not a folder", model.Quote(dir))
	case fi.Mode().Perm()&0o077 != 0:
		return nil, nil, fmt.Errorf("dir %s is not private (mode %04o, want 0700)", model.Quote(dir), fi.Mode().Perm())
	}
	if name == "" || filepath.Base(name) != name || !filepath.IsLocal(name) || strings.ContainsAny(name, `/\`) {
		return nil, nil, fmt.Errorf("name %s is not one file name inside dir", model.Quote(name))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("dir: %w", err)
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		root.Close()
		if errors.Is(err, fs.ErrExist) {
			return nil, nil, fmt.Errorf("%s already exists in dir: never overwritten", model.Quote(name))
		}
		return nil, nil, fmt.Errorf("creating %s: %w", model.Quote(name), err)
	}
	return root, f, nil
}
