package drafting

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
)

// Stamp sums up the drafts as files: the names, sizes and modification
// times in drafts/ and in the ledger. Any process writing, editing (the
// TUI's editor), filing or removing a draft changes it, so a watcher
// that compares stamps hears of every change without reading a draft;
// reading a directory listing is cheap enough to do every second. ""
// when the folder cannot be read.
func (w *Writer) Stamp() string {
	sum := sha256.New()
	for _, dir := range []string{filepath.Join(w.root, "drafts"), filepath.Join(w.root, ledgerDir)} {
		ents, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			return ""
		}
		for _, e := range ents {
			info, err := e.Info()
			if err != nil || e.Name() == rateFile || e.Name() == rateLock {
				continue // removed meanwhile; the next look sees it gone
			}
			fmt.Fprintf(sum, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
		}
	}
	return fmt.Sprintf("%x", sum.Sum(nil))
}
