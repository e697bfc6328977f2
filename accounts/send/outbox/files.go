package outbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A draft's attached files are copied beside its text when they are
// attached, so that what a person reviews is what is sent, however the
// file changes or wherever it goes afterwards:
//
//	drafts/<id>.files/<key>   one copy per Attach: line, 0600, in a 0700 folder
//
// The key is a hash of the path as the person wrote it (an Attach line
// is the truth; the copy is what it named when it was first read): the
// same line keeps its copy across edits, restarts and a reopening from
// the drafts view, and a line written again after being deleted is read
// afresh. Drafts lists only regular files, so the folder is never taken
// for a draft; DiscardDraft removes it last.
const draftFiles = ".files"

// filesDir is draft id's folder of copies.
func (b *Box) filesDir(id string) string { return filepath.Join(b.drafts, id+draftFiles) }

// fileKey names the copy of the file an Attach line names as written.
func fileKey(written string) string {
	sum := sha256.Sum256([]byte(written))
	return hex.EncodeToString(sum[:16])
}

// KeepFile copies what r holds (at most max bytes: a file that grew past
// it while read is refused, nothing kept) into draft id's folder as the
// copy of written, atomically, and returns the copy's path.
func (b *Box) KeepFile(id, written string, r io.Reader, max int64) (string, error) {
	if err := checkID(id); err != nil {
		return "", err
	}
	dir := b.filesDir(id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("outbox: draft %s: its files: %w", id, err)
	}
	key := fileKey(written)
	if _, err := writeAtomicFrom(dir, key, r, max); err != nil {
		if errors.Is(err, errTooLong) {
			return "", fmt.Errorf("outbox: draft %s: the copy of %q: %w: it grew past %d bytes while copied", id, written, ErrInvalid, max)
		}
		return "", fmt.Errorf("outbox: draft %s: the copy of %q: %w", id, written, err)
	}
	return filepath.Join(dir, key), nil
}

// KeptFile is the path of draft id's copy of written, when it has one.
func (b *Box) KeptFile(id, written string) (string, bool) {
	if checkID(id) != nil {
		return "", false
	}
	p := filepath.Join(b.filesDir(id), fileKey(written))
	info, err := os.Lstat(p)
	return p, err == nil && info.Mode().IsRegular()
}

// PruneFiles removes draft id's copies that none of written names any
// more (an Attach line deleted in the editor), and what a copy cut short
// by a kill left: a line written again is read afresh. A draft with no
// copies left loses its folder.
func (b *Box) PruneFiles(id string, written []string) error {
	if err := checkID(id); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, w := range written {
		keep[fileKey(w)] = true
	}
	dir := b.filesDir(id)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("outbox: draft %s: its files: %w", id, err)
	}
	if err := cleanTemps(dir); err != nil { // a copy a killed unibox cut short
		return err
	}
	var gone []string
	for _, e := range ents {
		if !keep[e.Name()] && !isTemp(e.Name()) {
			gone = append(gone, e.Name())
		}
	}
	if err := removeAll(dir, gone...); err != nil {
		return err
	}
	if len(gone) == len(ents) {
		_ = os.Remove(dir) // empty, unless a copy is being written
	}
	return nil
}

// removeFiles takes draft id's folder of copies away, with the draft.
func (b *Box) removeFiles(id string) error {
	if err := os.RemoveAll(b.filesDir(id)); err != nil {
		return fmt.Errorf("outbox: draft %s: removing its files: %w", id, err)
	}
	return nil
}

// cleanOrphanFiles removes the folders of copies whose draft is gone (a
// crash between a discard's text and its folder): they hold only copies.
func (b *Box) cleanOrphanFiles() error {
	ents, err := os.ReadDir(b.drafts)
	if err != nil {
		return fmt.Errorf("outbox: reading %s: %w", b.drafts, err)
	}
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), draftFiles)
		if !ok || !e.IsDir() || checkID(id) != nil {
			continue
		}
		_, merr := os.Stat(filepath.Join(b.drafts, id+draftMeta))
		_, terr := os.Stat(filepath.Join(b.drafts, id+draftText))
		if errors.Is(merr, fs.ErrNotExist) && errors.Is(terr, fs.ErrNotExist) {
			if err := b.removeFiles(id); err != nil {
				return err
			}
		}
	}
	return nil
}
