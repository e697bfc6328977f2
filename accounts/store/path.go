package store

import (
	"os"
	"path/filepath"
)

// DefaultPath is where the store lives: $XDG_CACHE_HOME/unibox/store.db,
// or ~/.cache/unibox/store.db (the XDG default). It is a cache: deleting
// it costs one listing per account.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_CACHE_HOME")
	if dir == "" || !filepath.IsAbs(dir) { // the spec says to ignore a relative one
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, ".cache")
	}
	return filepath.Join(dir, "unibox", "store.db"), nil
}
