package outbox

import (
	"crypto/sha256"
	"fmt"
	"os"
)

// Stamp sums up the outbox as files: each entry file's name, size and
// modification time. Any process queueing, advancing, taking back or
// removing an entry changes it, so a runner that compares stamps hears
// of an entry another process queued (`unibox send --queue` beside the
// TUI) without reading one; a directory listing is cheap enough to read
// every second or two. "" when the folder cannot be read.
func (b *Box) Stamp() string {
	ents, err := os.ReadDir(b.outbox)
	if err != nil {
		return ""
	}
	sum := sha256.New()
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile; the next look sees it gone
		}
		fmt.Fprintf(sum, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	return fmt.Sprintf("%x", sum.Sum(nil))
}
