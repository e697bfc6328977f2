package screen

import (
	"strings"

	"github.com/rivo/uniseg"

	"unibox/model"
	"unibox/model/review"
	"unibox/model/textsafe"
)

// How a screen shows whom mail goes to, the review screen and the
// message view alike: every address whole, first on its line, wrapped
// onto as many lines as it needs, its display name after it (only the
// name may be cut). A name such as
// "bob@uharness.test (Bob, Finance) - Example Corp" before
// <evil@attacker.test> cannot push the real address off the screen.

// minNameWidth is the least room a display name gets on its address's
// line; with less, it goes on a line of its own.
const minNameWidth = 12

// AddressLines is one address in room columns: the address first and
// whole (made visible, its punycode beside a non-ASCII domain:
// review.ShowAddress), broken between characters where it must be, then
// the display name in quotes, drawn with dim, cut if it must be.
func AddressLines(a model.Address, room int, dim func(...string) string) []string {
	name := ""
	if a.Name != "" {
		name = textsafe.Cell(review.Visible(a.Name))
	}
	if a.Address == "" { // no address (compose refuses it): the name as given
		return []string{dim(quoted(name, max(room-13, 3)) + " (no address)")}
	}
	parts := BreakCells(review.ShowAddress(a.Address), room, room, false)
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = textsafe.Fit(p, room)
	}
	if name == "" {
		return out
	}
	last := parts[len(parts)-1]
	if free := room - textsafe.Width(last) - 2; free >= min(textsafe.Width(name)+2, minNameWidth) {
		out[len(out)-1] = last + "  " + dim(quoted(name, free))
		return out
	}
	return append(out, dim(quoted(name, room)))
}

// quoted is name in quotes in at most w columns, cut inside them.
func quoted(name string, w int) string {
	if textsafe.Width(name)+2 <= w {
		return `"` + name + `"`
	}
	return `"` + textsafe.Fit(name, max(w-2, 1)) + `"`
}

// Hanging is s broken at spaces into width columns, later lines indented
// by two, each line drawn with style: a mark that must be read whole.
func Hanging(style func(...string) string, s string, width int) []string {
	parts := BreakCells(s, width, max(width-2, 1), true)
	for i, p := range parts {
		if i > 0 {
			p = "  " + p
		}
		parts[i] = style(textsafe.Fit(p, width))
	}
	return parts
}

// BreakCells lays s out (as a one-line cell shows it: textsafe.Cell) in
// lines of at most first columns, then rest columns, cutting nothing:
// between grapheme clusters, and with soft at a space when one is in the
// second half of the line (the spaces at the break are dropped).
func BreakCells(s string, first, rest int, soft bool) []string {
	s = textsafe.Cell(s)
	var out []string
	for w := max(first, 1); textsafe.Width(s) > w; w = max(rest, 1) {
		cut := fitting(s, w, soft)
		if !soft {
			out, s = append(out, s[:cut]), s[cut:]
			continue
		}
		out, s = append(out, strings.TrimRight(s[:cut], " ")), strings.TrimLeft(s[cut:], " ")
	}
	return append(out, s)
}

// fitting is how many bytes of s go on a line of w columns: whole
// grapheme clusters (one at least, even wider than w), ending with soft
// after a space when one is in the line's second half.
func fitting(s string, w int, soft bool) int {
	cut, space, used := 0, 0, 0
	for rest, state := s, -1; rest != ""; {
		var cl string
		var cw int
		cl, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if used+cw > w {
			if cut == 0 {
				return len(cl)
			}
			break
		}
		used, cut = used+cw, cut+len(cl)
		if cl == " " {
			space = cut
		}
	}
	if soft && space > cut/2 {
		return space
	}
	return cut
}
