// Package private keeps unibox's own folders and files (the local store,
// the account histories) private to the user. They hold mail headers,
// bodies and what each account went through: readable by other users of
// the machine, they leak the mail. unibox creates them 0700 and 0600, but
// a folder or file that already exists keeps its mode (made by an older
// unibox, restored from a backup, copied with cp -r under umask 022), and
// was used silently.
package private

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// Tighten takes the group and other bits off each of paths that has any
// (0777 becomes 0700, 0644 becomes 0600), when it is the user's: a chmod
// is all it takes, and the user owns what unibox made. It cannot chmod
// another user's file, and does not try: it says so. The answer is one
// warning for the lot, "" when every path was private already or does not
// exist. A symbolic link is followed (a user may keep ~/.cache/unibox
// elsewhere); whether a file may be a link is the caller's to decide.
func Tighten(paths ...string) string {
	var made, notes []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("cannot check who may read %s: %v", p, err))
			continue
		}
		mode := st.Mode().Perm()
		if mode&0o077 == 0 {
			continue
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
			notes = append(notes, fmt.Sprintf("%s is %04o and belongs to uid %d, not to you: other users may read it, and unibox cannot make it private", p, mode, sys.Uid))
			continue
		}
		if err := os.Chmod(p, mode&^0o077); err != nil {
			notes = append(notes, fmt.Sprintf("%s is %04o: other users may read it, and making it private failed: %v", p, mode, err))
			continue
		}
		made = append(made, fmt.Sprintf("%s (was %04o)", p, mode))
	}
	if len(made) > 0 {
		notes = append([]string{"other users could read " + strings.Join(made, ", ") + ": made private"}, notes...)
	}
	return strings.Join(notes, "; ")
}
