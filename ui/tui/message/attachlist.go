package message

import (
	"fmt"
	"strings"

	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// attachList is the message view's list of attachments (A): the shown
// body's own Attachments, from the same parse as its text, so that index
// i here is the part get_attachment's index i names. enter opens the
// selected one, S saves it; esc or A closes the list.
type attachList struct {
	open   bool
	cursor int
}

// step moves the selection by d within n attachments.
func (a attachList) step(d, n int) attachList {
	a.cursor = min(max(a.cursor+d, 0), max(n-1, 0))
	return a
}

// attachments draws the list in width x height: a title naming the keys,
// then one row per attachment (name, type, size), the selected one
// reversed.
func (v Viewer) attachments(width, height int) string {
	k := v.keys
	lines := []string{v.styles.Label.Render(textsafe.Fit(fmt.Sprintf("Attachments · %s open · %s save · %s close",
		screen.Hint(k.Open), screen.Hint(k.SaveAttachment), screen.Hint(k.Back)), width)), ""}
	for i, at := range v.body.Attachments {
		name := at.Name
		if name == "" {
			name = "(no name)"
		}
		row := textsafe.Fit(fmt.Sprintf(" %2d  %s  (%s, %s)", i+1, textsafe.Line(name), textsafe.Line(at.Type), screen.HumanSize(at.Size)), width)
		if i == v.attach.cursor {
			row = v.styles.RowSelected.Render(row)
		}
		lines = append(lines, row)
	}
	top := 0
	if over := v.attach.cursor + 3 - height; over > 0 {
		top = over // keep the selected row on screen
	}
	shown := make([]string, height)
	copy(shown, lines[min(top, len(lines)):])
	if top > 0 {
		shown[0] = lines[0]
	}
	return strings.Join(shown, "\n")
}
