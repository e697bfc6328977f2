package outbox

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// tempPrefix marks a write under way. Listings skip such files: one may be
// half written by a process killed mid-write.
const tempPrefix = ".tmp-"

// staleTemp is how old a temp file no one holds must be before it is
// cleared. The flock says whether its writer lives; the age closes the
// instant between a writer creating the file and locking it.
const staleTemp = 10 * time.Second

func isTemp(name string) bool { return strings.HasPrefix(name, tempPrefix) }

// writeAtomic puts data in dir/name so that a kill -9 or a power cut at
// any moment leaves either the old file whole or the new one whole: a
// temp file in the same folder (a rename does not cross file systems),
// written, fsynced, renamed over name, and the folder fsynced so the
// rename itself survives a power cut. The temp file is 0600 from its
// creation (it holds mail) and flocked while it is written, so that
// cleanTemps in another process never takes it from its living writer.
func writeAtomic(dir, name string, data []byte) error {
	_, err := writeAtomicFrom(dir, name, bytes.NewReader(data), -1)
	return err
}

// errTooLong: a copy read more than its bound (a file that grew while it
// was copied); nothing was written.
var errTooLong = errors.New("longer than its bound")

// writeAtomicFrom is writeAtomic of what r holds, streamed (an attached
// file need not be held in memory): at most max bytes (max < 0: no
// bound), else errTooLong and nothing written. It returns the length.
func writeAtomicFrom(dir, name string, r io.Reader, max int64) (n int64, err error) {
	tmp := filepath.Join(dir, tempPrefix+name+"-"+rand.Text()[:8])
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, fmt.Errorf("outbox: writing %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("outbox: writing %s in %s: %w", name, dir, err)
		}
	}()
	if err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return 0, err
	}
	if max >= 0 {
		r = io.LimitReader(r, max+1)
	}
	if n, err = io.Copy(f, r); err != nil {
		return 0, err
	}
	if max >= 0 && n > max {
		return 0, fmt.Errorf("%w (%d bytes)", errTooLong, max)
	}
	if err = f.Sync(); err != nil {
		return 0, err
	}
	if err = os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return 0, err
	}
	if err = f.Close(); err != nil {
		return 0, err
	}
	return n, syncDir(dir)
}

// syncDir makes the names in dir durable: a rename or an unlink is in the
// folder, not in the file, and is lost at a power cut until the folder is
// fsynced.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("outbox: syncing folder %s: %w", dir, err)
	}
	return nil
}

// removeAll unlinks the paths that exist, then fsyncs dir once.
func removeAll(dir string, names ...string) error {
	var errs []error
	for _, n := range names {
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("outbox: removing %s: %w", n, err))
		}
	}
	if err := syncDir(dir); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// cleanTemps clears the temp files in dir that no writer holds and that
// are older than staleTemp: what a process killed mid-write left. The
// file it was writing still holds its previous text (the rename never
// happened), so nothing of value goes.
func cleanTemps(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("outbox: reading %s: %w", dir, err)
	}
	for _, e := range ents {
		if !isTemp(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < staleTemp {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			os.Remove(p)
		}
		f.Close()
	}
	return nil
}
