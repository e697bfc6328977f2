package screen

import (
	"strings"
	"unibox/accounts/send/drafting"
	"unibox/model"
	"unibox/model/textsafe"

	"github.com/charmbracelet/bubbles/key"
)

// FitLines pads or cuts s to exactly n lines.
func FitLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// As is a binding under another description: what its key does here.
func As(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

// Hint is how a header or a status line names a binding's key: as the
// help does, so both follow a [keys] rebinding.
func Hint(b key.Binding) string { return b.Help().Key }

// LastHint is a binding's last key as the help names it: the arrow of
// "k/↑", for a hint that names two bindings in one ("↑/↓ scroll").
func LastHint(b key.Binding) string {
	h := b.Help().Key
	if last := h[strings.LastIndex(h, "/")+1:]; last != "" {
		return last
	}
	return h // "/" itself, or a key list ending in it
}

func FormatAddr(a model.Address) string {
	switch {
	case a.Name != "" && a.Address != "":
		return a.Name + " <" + a.Address + ">"
	case a.Name != "":
		return a.Name
	}
	return a.Address
}

// HumanSize is a size as every screen writes it: the review's
// attachment sizes and the viewer's say the same.
func HumanSize(n int64) string { return drafting.SizeWords(n) }

// Wrap breaks long lines at spaces to the width (by display width).
func Wrap(text string, w int) string {
	var out strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			out.WriteByte('\n')
		}
		for textsafe.Width(line) > w {
			cut := cutAt(line, w)
			out.WriteString(strings.TrimRight(line[:cut], " "))
			out.WriteByte('\n')
			line = strings.TrimLeft(line[cut:], " ")
		}
		out.WriteString(line)
	}
	return out.String()
}

// cutAt is a byte index where line fits in w columns, at a space if one is near.
func cutAt(line string, w int) int {
	width, last, space := 0, 0, -1
	for i, r := range line {
		rw := textsafe.Width(string(r))
		if width+rw > w {
			break
		}
		width += rw
		last = i + len(string(r))
		if r == ' ' {
			space = i + 1
		}
	}
	if space > last/2 {
		return space
	}
	if last == 0 {
		return len(string([]rune(line)[0]))
	}
	return last
}

// Rule is a horizontal line w columns wide: "─" is ambiguous-width, two
// columns on an East Asian terminal.
func Rule(w int) string {
	return textsafe.Fit(strings.Repeat("─", w/textsafe.Width("─")), w)
}
