package attach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"unibox/model"
	"unibox/model/filename"
)

// stagingPrefix names the staging folders in the download folder.
const stagingPrefix = ".unibox-saving-"

// staleAfter is how old a staging folder must be to be taken for the
// leftover of a unibox that died while saving: no save takes a day.
const staleAfter = 24 * time.Hour

// maxNumbered bounds "name (n).ext": past it the folder is full of the
// same name, and saying so beats looping.
const maxNumbered = 999

// Job is one save under way: the private staging folder the child writes
// into, inside the download folder (so the last step is a link, not a
// copy), and the safe name.
type Job struct {
	dir     string // the download folder
	staging string // private (0700), inside dir, removed by Close
	name    string // filename.Safe of the mail's name
}

// NewJob makes the staging folder for saving an attachment the mail
// calls mailName into dir (created if missing).
func NewJob(dir, mailName string) (*Job, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("download_dir %s is not an absolute path", model.Quote(dir))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("download_dir: %w", err)
	}
	sweep(dir, time.Now())
	staging, err := os.MkdirTemp(dir, stagingPrefix+"*") // 0700
	if err != nil {
		return nil, fmt.Errorf("download_dir: %w", err)
	}
	return &Job{dir: dir, staging: staging, name: filename.Safe(mailName)}, nil
}

// sweep removes staging folders of dir that a unibox killed while
// saving left behind (only unibox's own, by name, and only old ones:
// another unibox may be saving now).
func sweep(dir string, now time.Time) {
	old, _ := filepath.Glob(filepath.Join(dir, stagingPrefix+"*"))
	for _, p := range old {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() && now.Sub(fi.ModTime()) > staleAfter {
			os.RemoveAll(p)
		}
	}
}

// Written is how many bytes have reached the file so far, for a
// progress bar: the child writes it, this only looks.
func (j *Job) Written() int64 {
	fi, err := os.Stat(filepath.Join(j.staging, j.name))
	if err != nil {
		return 0
	}
	return fi.Size()
}

// Run has src write the attachment into the staging folder, then places
// it in the download folder under the safe name, or "name (n).ext" when
// that exists: never over an existing file. It returns the saved path.
func (j *Job) Run(ctx context.Context, src Source, id model.MessageID, index int) (string, error) {
	if _, err := src.SavePart(ctx, id, index, j.staging, j.name); err != nil {
		return "", err
	}
	return place(filepath.Join(j.staging, j.name), j.dir, j.name)
}

// Close removes the staging folder and whatever is left in it.
func (j *Job) Close() error { return os.RemoveAll(j.staging) }

// Save is NewJob, Run and Close in one.
func Save(ctx context.Context, src Source, id model.MessageID, index int, mailName, dir string) (string, error) {
	j, err := NewJob(dir, mailName)
	if err != nil {
		return "", err
	}
	defer j.Close()
	return j.Run(ctx, src, id, index)
}

// place gives the staged file its name in dir, the first of name,
// "name (1).ext", ... that does not exist. A hard link fails when the
// name exists, so nothing is ever overwritten, even by a race with
// another program; where links are not possible, the copy is created
// with O_EXCL instead.
func place(staged, dir, name string) (string, error) {
	for n := 0; n <= maxNumbered; n++ {
		dst := filepath.Join(dir, filename.Numbered(name, n))
		err := os.Link(staged, dst)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			err = copyNew(staged, dst)
			if errors.Is(err, fs.ErrExist) {
				continue
			}
		}
		if err != nil {
			return "", fmt.Errorf("saving %s: %w", model.Quote(dst), err)
		}
		return dst, nil
	}
	return "", fmt.Errorf("saving %s: %s and %d numbered copies already exist in %s", model.Quote(name), model.Quote(name), maxNumbered, model.Quote(dir))
}

// copyNew copies src into the new file dst (O_EXCL, 0600).
func copyNew(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(dst)
		}
	}()
	_, err = io.Copy(out, in)
	return err
}
