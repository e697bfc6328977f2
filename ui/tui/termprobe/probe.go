// Package termprobe asks the terminal what the Unicode tables leave to it:
// how wide it draws East Asian ambiguous-width characters. A cell measured
// narrower than the terminal draws it wraps the row and scrolls the account
// bar away, and no locale says for sure (tmux draws them narrow under
// ja_JP.UTF-8; GNOME Terminal, iTerm2 and PuTTY draw them wide when set
// so, under any locale). So, like vim's ambiwidth detection (t_u7), unibox
// prints one such character and asks the terminal where its cursor went.
package termprobe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// Terminal is the terminal's input and output, read with a deadline so a
// terminal that never answers costs a bounded wait.
type Terminal interface {
	io.ReadWriter
	SetReadDeadline(time.Time) error
}

// probeChar is the ambiguous-width character drawn: "…", the one unibox
// draws most (every cut cell ends in it).
const probeChar = "\u2026"

// ErrNoAnswer is returned when the terminal does not report its cursor
// before the deadline.
var ErrNoAnswer = errors.New("terminal did not report its cursor position")

// cpr is a cursor position report: ESC [ row ; col R.
var cpr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[(\d+);(\d+)R`) })

// AmbiguousWidth draws probeChar at the start of the current line, asks
// for the cursor position (DSR 6) and erases the line again; the column
// the cursor reached is the character's width. t must be in raw mode (no
// echo, no line buffering). Other input arriving meanwhile (a key typed
// ahead) is dropped.
func AmbiguousWidth(t Terminal, timeout time.Duration) (int, error) {
	if _, err := io.WriteString(t, "\r"+probeChar+"\x1b[6n"); err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	defer io.WriteString(t, "\r\x1b[K")
	if err := t.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	defer t.SetReadDeadline(time.Time{})
	var got []byte
	buf := make([]byte, 64)
	for {
		n, err := t.Read(buf)
		got = append(got, buf[:n]...)
		if m := cpr().FindSubmatch(got); m != nil {
			col, _ := strconv.Atoi(string(m[2]))
			switch col {
			case 2, 3: // the cursor started at column 1
				return col - 1, nil
			}
			return 0, fmt.Errorf("probe: the cursor is at column %d after one character", col)
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, io.EOF) {
				return 0, ErrNoAnswer
			}
			return 0, fmt.Errorf("probe: %w", err)
		}
		if len(got) > 4096 { // a flood of typed-ahead input: a report is shorter than 32 bytes
			got = got[len(got)-32:]
		}
	}
}
