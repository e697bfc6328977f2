package cli

import (
	"bytes"
	"io"
	"strings"

	"unibox/model/textsafe"
)

// table is text/tabwriter's drop-in for the faces' tables that measures
// a cell as a terminal draws it (textsafe.Width): tabwriter counts runes,
// so a CJK name or an emoji subject, two columns wide, pushed every cell
// after it out of line. Lines are written as tab-separated cells; Flush
// pads each column but the last to its widest cell and two spaces.
type table struct {
	w     io.Writer
	buf   bytes.Buffer
	lines [][]string
}

func newTable(w io.Writer) *table { return &table{w: w} }

// Write takes cells separated by tabs, lines by newlines.
func (t *table) Write(p []byte) (int, error) {
	t.buf.Write(p)
	for {
		line, err := t.buf.ReadString('\n')
		if err != nil { // no newline yet: keep the part for the next write
			t.buf.Reset()
			t.buf.WriteString(line)
			return len(p), nil
		}
		t.lines = append(t.lines, strings.Split(strings.TrimSuffix(line, "\n"), "\t"))
	}
}

// Flush writes the lines with their columns aligned.
func (t *table) Flush() error {
	if t.buf.Len() > 0 {
		t.lines = append(t.lines, strings.Split(t.buf.String(), "\t"))
		t.buf.Reset()
	}
	var widths []int
	for _, cells := range t.lines {
		for i, c := range cells[:len(cells)-1] {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], textsafe.Width(c))
		}
	}
	var out strings.Builder
	for _, cells := range t.lines {
		for i, c := range cells {
			out.WriteString(c)
			if i < len(cells)-1 {
				out.WriteString(strings.Repeat(" ", widths[i]-textsafe.Width(c)+2))
			}
		}
		out.WriteByte('\n')
	}
	t.lines = nil
	_, err := io.WriteString(t.w, out.String())
	return err
}
