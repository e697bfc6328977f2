package unsub

import (
	"strings"

	"github.com/rivo/uniseg"

	"unibox/model/textsafe"
)

// overlay draws box over the last lines of body (height lines of width
// columns), under a rule: the frame keeps its size.
func overlay(body, box string, width int) string {
	lines := strings.Split(body, "\n")
	text := wrapCells(textsafe.Line(box), width)
	if len(text)+1 > len(lines) {
		text = text[:max(len(lines)-1, 0)]
	}
	if len(lines) < 2 {
		return body
	}
	at := len(lines) - len(text) - 1
	lines[at] = textsafe.Fit(strings.Repeat("─", width), width)
	for i, l := range text {
		lines[at+1+i] = textsafe.Fit(l, width)
	}
	return strings.Join(lines, "\n")
}

// wrapCells cuts s into lines of at most w columns, between grapheme
// clusters (a URI has no spaces to break at).
func wrapCells(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var out []string
	var line strings.Builder
	cols := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		c := g.Str()
		cw := textsafe.Width(c)
		if cols+cw > w && cols > 0 {
			out = append(out, line.String())
			line.Reset()
			cols = 0
		}
		line.WriteString(c)
		cols += cw
	}
	if cols > 0 {
		out = append(out, line.String())
	}
	return out
}

// Over draws the box on a body while it is shown (the list's and the
// message view's).
func (u Box) Over(body string, width int) string {
	if u.shown == "" {
		return body
	}
	return overlay(body, u.shown, width)
}
