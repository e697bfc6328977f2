package history

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// File is an account's history file, shared by every unibox process of
// the user (a TUI, `unibox mcp`, a cron `list`). Each append takes an
// exclusive lock on a lock file beside it, appends one line, and rotates
// the file to <name>.1 once it passes the size bound: with the lock, two
// processes never lose each other's lines, never both rotate, and never
// write into a file the other has just rotated away.
type File struct {
	path string
	max  int64
}

// DefaultMaxBytes bounds one file; with its one rotated copy an account
// keeps at most twice that.
const DefaultMaxBytes = 1 << 20

// NewFile is account's history file in dir (made 0700 if missing).
func NewFile(dir, account string, maxBytes int64) (*File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return &File{path: filepath.Join(dir, FileName(account)), max: maxBytes}, nil
}

// Path is the file's path.
func (f *File) Path() string { return f.path }

// Append writes one line, under the lock, rotating if the file is full.
func (f *File) Append(line []byte) error {
	unlock, err := f.lock(syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer unlock()
	w, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = w.Write(line)
	var size int64
	if st, serr := w.Stat(); serr == nil {
		size = st.Size()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil && size > f.max {
		err = os.Rename(f.path, f.path+".1")
	}
	return err
}

// lock takes the lock file: exclusive (LOCK_EX) to append and rotate,
// shared (LOCK_SH) to read, so readers do not wait on each other.
func (f *File) lock(how int) (func(), error) {
	lf, err := os.OpenFile(f.path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(lf.Fd()), how); err != nil {
		lf.Close()
		return nil, fmt.Errorf("lock %s: %w", lf.Name(), err)
	}
	return func() {
		_ = syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
		lf.Close()
	}, nil
}

// Read returns every event in the rotated copy and the file, oldest first.
// A line that is not an event (a torn write of a killed process) is
// skipped. It reads under the lock, shared: without it a rotation between
// reading the copy and the file moved a whole file of events out of
// sight (the file became the copy after the copy was read).
func (f *File) Read() ([]Event, error) {
	unlock, err := f.lock(syscall.LOCK_SH)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var out []Event
	for _, p := range []string{f.path + ".1", f.path} {
		r, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, err
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var e Event
			if json.Unmarshal(sc.Bytes(), &e) == nil && e.Kind != "" {
				out = append(out, e)
			}
		}
		r.Close()
		if err := sc.Err(); err != nil {
			return out, err
		}
	}
	return out, nil
}

// FileName is an account name made safe as a file name: letters, digits,
// '-', '_' and '.' stay; every other byte is %XX; a leading '.' is escaped
// too, so no name is hidden, "." or "..", or holds a '/'. Long names are
// cut (their hash keeps them apart).
func FileName(account string) string {
	var b strings.Builder
	for i, r := range account {
		switch {
		case r == '.' && i == 0, r == '%':
			fmt.Fprintf(&b, "%%%02X", r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.':
			b.WriteRune(r)
		default:
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
	}
	name := b.String()
	if name == "" {
		name = "%00"
	}
	if len(name) > 120 {
		cut := 110
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = fmt.Sprintf("%s~%08x", name[:cut], fnv32(account))
	}
	return name + ".log"
}

func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// DefaultDir is where history files live: $XDG_STATE_HOME/unibox, or
// ~/.local/state/unibox (the XDG default).
func DefaultDir() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) { // the spec says to ignore a relative one
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "unibox"), nil
}
