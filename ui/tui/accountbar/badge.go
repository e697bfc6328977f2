package accountbar

import (
	"slices"
	"strings"
	"time"

	"unibox/accounts"
	"unibox/model/textsafe"
)

// barMeasure measures badges for layoutBar from their parts (name cut to
// each width, glyph, label, count), each part once: a step's width is then
// a sum, cheap enough to try every step on every frame. Only the chosen
// layout is drawn.
type barMeasure struct {
	parts []*badgeParts
}

func newBarMeasure(badges []Badge, now time.Time) *barMeasure {
	m := &barMeasure{parts: make([]*badgeParts, len(badges))}
	for i, bd := range badges {
		m.parts[i] = NewBadgeParts(bd, now)
	}
	return m
}

// form is the form step s gives badge i's class.
func (m *barMeasure) form(i int, s barStep) form {
	if m.parts[i].degraded {
		return s.degraded
	}
	return s.healthy
}

// total is the width of the badges keep, one space apart.
func (m *barMeasure) total(keep []int, s barStep) int {
	w := max(len(keep)-1, 0)
	for _, i := range keep {
		w += m.parts[i].width(m.form(i, s))
	}
	return w
}

// layout is the badges keep drawn as step k gives.
func (m *barMeasure) layout(k int, keep []int) barLayout {
	l := barLayout{step: k, items: make([]barItem, len(keep))}
	for j, i := range keep {
		l.items[j] = barItem{index: i, text: m.parts[i].text(m.form(i, barSteps[k]))}
	}
	return l
}

// priority orders the badges by who is kept when not all fit: the focused
// one (if at all possible), then the degraded, then the rest, each in
// configured order.
func (m *barMeasure) priority() []int {
	var focused, bad, rest []int
	for i, p := range m.parts {
		switch {
		case p.focused:
			focused = append(focused, i)
		case p.degraded:
			bad = append(bad, i)
		default:
			rest = append(rest, i)
		}
	}
	return slices.Concat(focused, bad, rest)
}

// hidden counts the degraded and the other badges among idx.
func (m *barMeasure) hidden(idx []int) (down, more int) {
	for _, i := range idx {
		if m.parts[i].degraded {
			down++
		} else {
			more++
		}
	}
	return down, more
}

// badgeParts are the pieces every form of one badge is made of.
type badgeParts struct {
	name, glyph, Label, count string
	nameW, glyphW, labelW     int
	focused, degraded         bool
	cuts                      [nameWide + 1]nameCut // by the width cut to
}

type nameCut struct {
	s  string
	w  int
	ok bool
}

func NewBadgeParts(bd Badge, now time.Time) *badgeParts {
	p := &badgeParts{name: textsafe.Cell(bd.Name), glyph: bd.Health.Glyph(), Label: bd.Health.Badge(now),
		focused: bd.Focused, degraded: bd.Health.Degraded()}
	if bd.Syncing != "" && bd.Health.Connected() {
		p.Label += " · " + bd.Syncing
	}
	if bd.Unread > 0 {
		p.count = " " + accounts.Count{Unread: bd.Unread, Exact: !bd.Inexact}.String()
	}
	p.nameW, p.glyphW, p.labelW = textsafe.Width(p.name), textsafe.Width(p.glyph), textsafe.Width(p.Label)
	return p
}

// cut is the name in at most n columns, cut with "…" as the bar always
// did, and its width.
func (p *badgeParts) cut(n int) (string, int) {
	if p.nameW <= n {
		return p.name, p.nameW
	}
	if c := p.cuts[n]; c.ok {
		return c.s, c.w
	}
	c := strings.TrimRight(textsafe.Fit(p.name, n), " ")
	p.cuts[n] = nameCut{c, textsafe.Width(c), true}
	return c, p.cuts[n].w
}

// text is the badge in form f. A full badge is padded by a space each side
// (the focused one bracketed instead), as it always was: its name does not
// start with a glyph, so the spaces are what tell it from its neighbours. A
// compact badge is only bracketed when focused.
func (p *badgeParts) text(f form) string {
	var s string
	name, _ := p.cut(f.nameW)
	switch f.kind {
	case formFull:
		s = name + " " + p.Label + p.count
	case formShort:
		s = p.glyph + " " + name + p.count
	default:
		s = p.glyph
	}
	switch {
	case p.focused:
		return "[" + s + "]"
	case f.kind == formFull:
		return " " + s + " "
	}
	return s
}

// width is textsafe.Width(p.text(f)) summed from the parts (the count is
// ASCII): a name through textsafe.Cell has no character that would join
// the space or bracket beside it into one cluster.
func (p *badgeParts) width(f form) int {
	frame := 2 * boolInt(p.focused || f.kind == formFull)
	_, nameW := p.cut(f.nameW)
	switch f.kind {
	case formFull:
		return frame + nameW + 1 + p.labelW + len(p.count)
	case formShort:
		return frame + p.glyphW + 1 + nameW + len(p.count)
	}
	return frame + p.glyphW
}
