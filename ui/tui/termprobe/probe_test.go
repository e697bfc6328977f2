package termprobe

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// fakeTerminal is the far end of a real pty: it reads what the probe draws
// and answers as a terminal drawing "…" in width columns would.
func fakeTerminal(t *testing.T, answer func(drawn []byte) string) (*os.File, chan []byte) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptm.Close(); tty.Close() })
	drawn := make(chan []byte, 1)
	go func() {
		var all []byte
		buf := make([]byte, 256)
		answered := false
		for {
			n, err := ptm.Read(buf)
			all = append(all, buf[:n]...)
			if !answered && bytes.Contains(all, []byte("\x1b[6n")) {
				answered = true
				if a := answer(all); a != "" {
					ptm.Write([]byte(a))
				}
			}
			if bytes.HasSuffix(all, []byte("\r\x1b[K")) || err != nil {
				drawn <- all
				return
			}
		}
	}()
	return tty, drawn
}

func TestAmbiguousWidth(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		want   int
		err    error
	}{
		{"narrow terminal", "\x1b[7;2R", 1, nil},
		{"wide terminal", "\x1b[7;3R", 2, nil},
		{"keys typed ahead", "jjk\x1b[A\x1b[12;3R", 2, nil},
		{"half a report", "\x1b[12;", 0, ErrNoAnswer},
		{"no answer", "", 0, ErrNoAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tty, drawn := fakeTerminal(t, func([]byte) string { return tt.answer })
			// An answered probe must not wait for its deadline: give it a
			// long one and a bound well below it.
			timeout := 5 * time.Second
			if tt.err != nil {
				timeout = 300 * time.Millisecond
			}
			start := time.Now()
			got, err := probeFile(tty, timeout)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Fatalf("AmbiguousWidth = %d, %v; want %d, %v", got, err, tt.want, tt.err)
			}
			if tt.err == nil && time.Since(start) > 4*time.Second {
				t.Errorf("an answered probe waited %v", time.Since(start))
			}
			out := string(<-drawn)
			if !strings.HasPrefix(out, "\r…\x1b[6n") || !strings.HasSuffix(out, "\r\x1b[K") {
				t.Errorf("drew %q: want the character at column 1, the query, and the line erased", out)
			}
		})
	}
}

func TestAmbiguousWidthOddColumn(t *testing.T) {
	tty, _ := fakeTerminal(t, func([]byte) string { return "\x1b[1;1R" })
	if _, err := probeFile(tty, time.Second); err == nil || errors.Is(err, ErrNoAnswer) {
		t.Fatalf("a cursor that did not move: err %v, want an unexpected-column error", err)
	}
}

func TestDecideFromConfig(t *testing.T) {
	for mode, want := range map[string]bool{"narrow": false, "wide": true} {
		wide, src, err := Decide(mode)
		if wide != want || src != FromConfig || err != nil {
			t.Errorf("Decide(%q) = %v, %v, %v", mode, wide, src, err)
		}
	}
}
