// Package rulesfile writes the person's rules file, the one file of
// theirs unibox ever writes (config.toml never): a rule proposal a person
// accepted is appended. The write is atomic (a new file renamed over the
// old, so a crash leaves the old or the new, never half), under a lock
// (two faces accepting at once append one after the other), and only
// over the file the person was shown: if it changed since, nothing is
// written and the caller says so.
package rulesfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrChanged: the file is not what the person was shown.
var ErrChanged = errors.New("the rules file changed since it was shown")

// Seen is the file as it was read: whether it existed and its bytes'
// hash.
type Seen struct {
	Exists bool
	Sum    [sha256.Size]byte
}

// Read reads the file at path; a missing file is empty and not Exists.
func Read(path string) ([]byte, Seen, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Seen{}, nil
	}
	if err != nil {
		return nil, Seen{}, fmt.Errorf("rules file: %w", err)
	}
	return data, Seen{Exists: true, Sum: sha256.Sum256(data)}, nil
}

// Append adds text at the end of the file at path, if it is still as
// seen. check is given the whole new text first (the caller parses it);
// its error writes nothing. A missing file is made 0600; an existing
// one keeps its mode, and a symlink (a dotfiles repository) is followed,
// its target written.
func Append(path string, seen Seen, text []byte, check func([]byte) error) error {
	target, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		target, err = path, nil
	}
	if err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "."+filepath.Base(target)+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("rules file: the lock: %w", err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return fmt.Errorf("rules file: locking: %w", err)
	}
	defer unix.Flock(int(lock.Fd()), unix.LOCK_UN)
	old, now, err := Read(target)
	if err != nil {
		return err
	}
	if now != seen {
		return fmt.Errorf("%w: %s", ErrChanged, path)
	}
	mode := fs.FileMode(0o600)
	if now.Exists {
		if fi, err := os.Stat(target); err == nil {
			mode = fi.Mode().Perm()
		}
	}
	next := old
	if len(next) > 0 && !bytes.HasSuffix(next, []byte("\n")) {
		next = append(next, '\n')
	}
	next = append(next, text...)
	if check != nil {
		if err := check(next); err != nil {
			return err
		}
	}
	return writeAtomic(target, next, mode)
}

// writeAtomic replaces target with data: a temporary file beside it,
// synced, renamed over it, and the folder synced.
func writeAtomic(target string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".new*")
	if err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("rules file: writing: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("rules file: writing: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("rules file: writing: %w", err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
