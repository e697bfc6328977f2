package drafting

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"unibox/model/compose"
	"unibox/model/textsafe"
)

// A file a person attaches (an Attach: line, the review's attach key,
// `unibox send --attach`) is read from their disk: only a regular file,
// and only one that can go out at all. Anything else is refused before
// one byte is read, since reading a FIFO blocks until someone writes to
// it, /dev/zero never ends, and a 4 GB file would be copied only to be
// refused.

// Why a file is refused; each is wrapped in an *AttachError.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooBig     = errors.New("too big to send")
)

// AttachError is a file that cannot be attached: Path as the person
// wrote it, Err why (errors.Is finds fs.ErrNotExist, fs.ErrPermission,
// ErrNotRegular, ErrTooBig).
type AttachError struct {
	Path string
	Err  error
}

func (e *AttachError) Error() string {
	return fmt.Sprintf("Attach: %s: %v", textsafe.Line(e.Path), e.Err)
}

func (e *AttachError) Unwrap() error { return e.Err }

// ExpandPath is written with a leading "~" or "~/" made the home folder;
// anything else is as written (relative to where unibox runs).
func ExpandPath(written string) (string, error) {
	if written != "~" && !strings.HasPrefix(written, "~/") {
		return written, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("expanding ~: %w", err)
	}
	return filepath.Join(home, strings.TrimPrefix(written, "~")), nil
}

// OpenFile opens the file written names for attaching: a regular file
// whose size, encoded for mail, is within limit, checked
// before it is read. It is opened without blocking and checked again
// on the open file, so a file swapped for a FIFO in between cannot
// hang the caller. The caller closes it; size is what it held then.
func OpenFile(written string, limit Limit) (f *os.File, size int64, err error) {
	fail := func(err error) (*os.File, int64, error) {
		return nil, 0, &AttachError{Path: written, Err: err}
	}
	path, err := ExpandPath(written)
	if err != nil {
		return fail(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return fail(unwrapPath(err))
	}
	if err := checkFile(info, limit); err != nil {
		return fail(err)
	}
	f, size, err = openChecked(path, limit)
	if err != nil {
		return fail(err)
	}
	return f, size, nil
}

// openChecked opens path without blocking (a FIFO opened for reading
// would wait for a writer; O_NOCTTY: a terminal never becomes ours) and
// checks the open file as OpenFile checked the path: what was a regular
// file a moment ago may not be now.
func openChecked(path string, limit Limit) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, 0, unwrapPath(err)
	}
	info, err := f.Stat()
	if err == nil {
		err = checkFile(info, limit)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// checkFile refuses what is not a regular file, or is too big to go.
func checkFile(info fs.FileInfo, limit Limit) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%w: it is %s", ErrNotRegular, kindOf(info.Mode()))
	}
	if n := info.Size(); limit.Bytes > 0 && EncodedSize(n) > limit.Bytes {
		return fmt.Errorf("%w: %s, %s once encoded for mail, over %s", ErrTooBig,
			SizeWords(n), SizeWords(EncodedSize(n)), limit.Words())
	}
	return nil
}

// kindOf names what a path is when it is not a regular file.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a file"
}

// unwrapPath is a *fs.PathError's cause, whose path (expanded, the home
// folder in it) the AttachError already says as the person wrote it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// EncodedSize is what n bytes take in a message, base64 in lines of 76
// characters: a little over 4/3 of n.
func EncodedSize(n int64) int64 {
	return (n+2)/3*4 + (n+56)/57*2
}

// SizeWords is n as people read it (MB of 1<<20 bytes, as the TUI's
// sizes are).
func SizeWords(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// ReadFile is the part the file written names makes, read now (OpenFile's
// checks first): what `unibox send --attach` carries, with no draft to
// keep a copy in.
func ReadFile(written string, limit Limit) (compose.Part, error) {
	f, size, err := OpenFile(written, limit)
	if err != nil {
		return compose.Part{}, err
	}
	defer f.Close()
	bound := size
	if limit.Bytes > 0 {
		bound = max(size, largestFile(limit.Bytes))
	}
	data, err := io.ReadAll(io.LimitReader(f, bound+1))
	switch {
	case err != nil:
		return compose.Part{}, &AttachError{Path: written, Err: err}
	case int64(len(data)) > bound:
		return compose.Part{}, &AttachError{Path: written, Err: fmt.Errorf("%w: it grew while read", ErrTooBig)}
	}
	return compose.Part{Name: compose.FileName(filepath.Base(written)), Type: Sniff(data), Data: data, Path: written}, nil
}
