package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ErrFetchClaimed: another process (or another handle in this one) is
// fetching the account's bodies into this store file.
var ErrFetchClaimed = errors.New("another unibox fetches this account's bodies")

// ClaimFetch takes the right to fetch k's bodies in the background into
// this file, without waiting: the TUI and `unibox mcp` running at once
// would otherwise each fetch at body_fetch_kbps, twice the pace the
// person allowed the server. The claim is an flock on a file beside the
// store's: the kernel drops it when its process dies, kill -9 included,
// so a dead face never holds another's fetch back. release gives it up.
// An in-memory store has no other process: the claim always holds.
func (s *Store) ClaimFetch(k Key) (release func(), err error) {
	if s.path == "" {
		return func() {}, nil
	}
	sum := sha256.Sum256([]byte(k.Name + "\x00" + k.Host + "\x00" + k.User))
	name := s.path + "-fetch-" + hex.EncodeToString(sum[:8]) + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: claiming the body fetch: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrFetchClaimed
		}
		return nil, fmt.Errorf("store: claiming the body fetch: %w", err)
	}
	return func() { f.Close() }, nil // closing the file drops its lock
}
