package compose

import (
	"fmt"
	"strings"

	"github.com/rivo/uniseg"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/review"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// The review's page. What a person must see before sending is never cut
// to the screen's width: every mark, and every recipient's address whole,
// wrapped onto as many lines as it needs, with its display name after it
// (only the name may be cut). A name such as
// "bob@uharness.test (Bob, Finance) - Example Corp" before
// <evil@attacker.test> cannot push the real address off the screen.
// Since that can take more lines than the screen has, all of it scrolls
// with the text, and the bottom line says "↓ more" while anything is
// below.

// labelWidth is the columns of a header's label ("Subject: ").
const labelWidth = 9

// minNameWidth is the least room a display name gets on its address's
// line; with less, it goes on a line of its own.
const minNameWidth = 12

// Page is the review's lines: those that stay (what stops the send, and
// the discard's question), and those that scroll (the marks, the headers
// as they will go, the text, then the message it answers).
func (c Composer) Page(width int) (fixed, text []string) {
	d := c.Shown
	if c.refused != "" {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(textsafe.Line("the server refused it: "+c.refused), width)))
	}
	if c.problem != "" {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(textsafe.Line("cannot send: "+c.problem+" · "+screen.Hint(c.keys.Edit)+" edits"), width)))
	}
	if c.confirm {
		fixed = append(fixed, c.styles.StatusError.Render(textsafe.Fit(screen.Hint(c.keys.Discard)+" again discards this draft: its text is lost", width)))
	}
	text = append(c.markLines(width), c.headerLines(width)...)
	text = append(text, screen.Rule(width))
	text = append(text, c.bodies.lines(d.Body, width, func() []string { return strings.Split(screen.Wrap(faithful(d.Body), width), "\n") })...)
	if c.answers == nil && c.answersNote == "" {
		return fixed, text
	}
	verb := "answers"
	if d.Kind == mailcompose.KindForward {
		verb = "forwards"
	}
	text = append(text, textsafe.Fit("── "+verb+" "+strings.Repeat("─", max(width-4-len(verb), 0)), width))
	if c.answersNote != "" {
		return fixed, append(text, c.styles.Dim.Render(textsafe.Fit(textsafe.Line(c.answersNote), width)))
	}
	o := c.answers
	text = append(text, textsafe.Fit(c.styles.Label.Render("From:   ")+" "+textsafe.Line(screen.FormatAddr(o.From)+" · "+o.Date.Format("Mon, 2 Jan 2006 15:04")), width))
	text = append(text, textsafe.Fit(c.styles.Label.Render("Subject:")+" "+textsafe.Line(o.Subject), width), "")
	return fixed, append(text, c.quoted.lines(o.Text, width, func() []string { return strings.Split(screen.Wrap(textsafe.Block(o.Text), width), "\n") })...)
}

// headerLines is the headers as they will go: each address on lines of
// its own, the subject and the attachments wrapped.
func (c Composer) headerLines(width int) []string {
	d := c.Shown
	room := max(width-labelWidth, 1)
	var out []string
	label := func(name string, first bool) string {
		if !first {
			return strings.Repeat(" ", labelWidth)
		}
		return c.styles.Label.Render(fmt.Sprintf("%-8s", name)) + " "
	}
	addresses := func(name string, list []model.Address) {
		if len(list) == 0 {
			out = append(out, label(name, true))
		}
		for i, a := range list {
			for j, l := range c.addressLines(a, room) {
				out = append(out, label(name, i == 0 && j == 0)+l)
			}
		}
	}
	words := func(name, value string) {
		for i, l := range breakCells(value, room, room, true) {
			out = append(out, label(name, i == 0)+textsafe.Fit(l, room))
		}
	}
	addresses("From:", []model.Address{d.From})
	addresses("To:", d.To)
	if len(d.Cc) > 0 {
		addresses("Cc:", d.Cc)
	}
	if len(d.Bcc) > 0 {
		addresses("Bcc:", d.Bcc)
	}
	words("Subject:", d.Subject)
	for _, p := range d.Attachments {
		words("Attach:", fmt.Sprintf("%s (%s, %s)", p.Name, p.Type, screen.HumanSize(int64(len(p.Data)))))
	}
	return out
}

// addressLines is one address in room columns: the address first and
// whole (made visible, its punycode beside a non-ASCII domain:
// review.ShowAddress), broken between characters where it must be, then
// the display name in quotes, dimmed, cut if it must be.
func (c Composer) addressLines(a model.Address, room int) []string {
	name := ""
	if a.Name != "" {
		name = textsafe.Cell(review.Visible(a.Name))
	}
	if a.Address == "" { // no address (compose refuses it): the name as given
		return []string{c.styles.Dim.Render(quoted(name, max(room-13, 3)) + " (no address)")}
	}
	parts := breakCells(review.ShowAddress(a.Address), room, room, false)
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = textsafe.Fit(p, room)
	}
	if name == "" {
		return out
	}
	last := parts[len(parts)-1]
	if free := room - textsafe.Width(last) - 2; free >= min(textsafe.Width(name)+2, minNameWidth) {
		out[len(out)-1] = last + "  " + c.styles.Dim.Render(quoted(name, free))
		return out
	}
	return append(out, c.styles.Dim.Render(quoted(name, room)))
}

// quoted is name in quotes in at most w columns, cut inside them.
func quoted(name string, w int) string {
	if textsafe.Width(name)+2 <= w {
		return `"` + name + `"`
	}
	return `"` + textsafe.Fit(name, max(w-2, 1)) + `"`
}

// markLines is every one of the review's marks, each wrapped onto as
// many lines as it needs: what a person should see before sending.
func (c Composer) markLines(width int) []string {
	if c.checking {
		return c.wrapped(c.styles.Dim.Render, "checking whom this account has written to…", width)
	}
	if len(c.Marks) == 0 {
		return c.wrapped(c.styles.Dim.Render, "every recipient has been written to before", width)
	}
	var out []string
	for _, mk := range c.Marks {
		text := mk.Text
		if mk.Field != "" {
			text = mk.Field + ": " + text
		}
		out = append(out, c.wrapped(c.styles.StatusError.Render, "! "+textsafe.Line(text), width)...)
	}
	return out
}

// wrapped is s broken at spaces into width columns, later lines indented
// by two, each line styled.
func (c Composer) wrapped(style func(...string) string, s string, width int) []string {
	parts := breakCells(s, width, max(width-2, 1), true)
	for i, p := range parts {
		if i > 0 {
			p = "  " + p
		}
		parts[i] = style(textsafe.Fit(p, width))
	}
	return parts
}

// breakCells lays s out (as a one-line cell shows it: textsafe.Cell) in
// lines of at most first columns, then rest columns, cutting nothing:
// between grapheme clusters, and with soft at a space when one is in the
// second half of the line (the spaces at the break are dropped).
func breakCells(s string, first, rest int, soft bool) []string {
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
