package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"unibox/model/textsafe"
)

// A table's columns line up as a terminal draws them: a CJK name or an
// emoji is two columns wide, and the cell after it starts where the cell
// after a narrow one does (text/tabwriter counted runes and did not).
func TestTableAlignsWideCells(t *testing.T) {
	var b bytes.Buffer
	tw := newTable(&b)
	fmt.Fprintln(tw, "FROM\tSUBJECT\tEND")
	fmt.Fprintln(tw, "高橋 雅人\tランチ 🍕\tx")
	fmt.Fprintln(tw, "Bob\tlunch\ty")
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	col := func(line, cell string) int { return textsafe.Width(line[:strings.Index(line, cell)]) }
	for _, c := range []struct{ line, subject, end string }{{lines[0], "SUBJECT", "END"}, {lines[1], "ランチ", "x"}, {lines[2], "lunch", "y"}} {
		if got, want := col(c.line, c.subject), 11; got != want { // 高橋 雅人 is 9 columns, and two spaces
			t.Errorf("%q: the second column starts at %d, want %d", c.line, got, want)
		}
		if got, want := col(c.line, c.end), 11+9+2; got != want { // ランチ 🍕 is 9 columns wide, and two spaces
			t.Errorf("%q: the third column starts at %d, want %d", c.line, got, want)
		}
	}
}
