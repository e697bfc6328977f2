package outbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"unibox/accounts/private"
)

// Errors callers tell apart with errors.Is.
var (
	// ErrClaimed: another process (or goroutine) holds the entry's lock.
	ErrClaimed = errors.New("outbox entry is being handled by another unibox")
	// ErrNotFound: no draft or entry with that id (sent and removed, or
	// discarded, possibly by another process).
	ErrNotFound = errors.New("not found")
	// ErrState: the step is not one the state machine allows.
	ErrState = errors.New("not allowed in this state")
	// ErrDamaged: the file on disk does not parse; it is kept.
	ErrDamaged = errors.New("damaged on disk")
	// ErrInvalid: the caller's input is refused (the error names the field).
	ErrInvalid = errors.New("invalid")
)

// Box is the drafts and the outbox under one root. Several Boxes, in one
// process or many, may share a root: every change is a rename and every
// send is guarded by an flock, so they need no other coordination.
type Box struct {
	root, drafts, outbox string
	warning              string
}

// DefaultRoot is $XDG_DATA_HOME/unibox, or ~/.local/share/unibox (the XDG
// default; a relative $XDG_DATA_HOME is ignored, as the spec says).
func DefaultRoot() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("outbox: where to keep drafts: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "unibox"), nil
}

// Open makes root, drafts/ and outbox/ (0700) when missing, takes group
// and other bits off them when they exist with looser modes (they hold
// mail: see Warning), and clears temp files that writers cut short left
// and copies of attached files whose draft is gone.
func Open(root string) (*Box, error) {
	b := &Box{root: root, drafts: filepath.Join(root, "drafts"), outbox: filepath.Join(root, "outbox")}
	for _, d := range []string{root, b.drafts, b.outbox} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("outbox: making %s: %w", d, err)
		}
	}
	paths := []string{root, b.drafts, b.outbox}
	for _, d := range []string{b.drafts, b.outbox} {
		names, err := listNames(d)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			paths = append(paths, filepath.Join(d, n))
		}
	}
	if w := private.Tighten(paths...); w != "" {
		b.warning = "drafts and outbox: " + w
	}
	for _, d := range []string{b.drafts, b.outbox} {
		if err := cleanTemps(d); err != nil {
			return nil, err
		}
	}
	if err := b.cleanOrphanFiles(); err != nil {
		return nil, err
	}
	return b, nil
}

// Root is the folder the Box was opened on.
func (b *Box) Root() string { return b.root }

// Warning says what Open found readable by other users and made
// private ("" when all was private): the caller shows it, as it shows
// the store's.
func (b *Box) Warning() string { return b.warning }

// listNames is the file names in dir, temp files left out.
func listNames(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("outbox: reading %s: %w", dir, err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && !isTemp(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}
