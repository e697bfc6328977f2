package accountbar

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"unibox/accounts"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// Bar renders one badge per account on exactly one line: name, state
// glyph and word, unread count. The focused account is bracketed (and
// styled), so it stands out without colour too. When the badges do not fit
// they are compacted (see barSteps), and accounts are only hidden behind a
// count ("+2 down +9 more"), never silently.
type Bar struct {
	Styles screen.Styles
	Badges []Badge
	Now    time.Time // countdowns are read at this time
}

// Badge is one account's part of the bar: what it is called, how it is,
// what is unread and whether it has the focus.
type Badge struct {
	Name   string
	Health accounts.Health
	Unread int
	// Inexact: Unread is only what unibox holds of the inbox (a server
	// that cannot count it): drawn "~12".
	Inexact bool
	Focused bool
	Syncing string // "syncing 12k/100k" while a first sync fills the store
}

// View lays the bar out as plain text first (layoutBar) and styles it
// afterwards, so styling can never change what fits.
func (b Bar) View(width, _ int) string {
	badges := b.Badges
	l := layoutBar(badges, width, b.Now)
	parts := make([]string, 0, len(l.items)+1)
	for _, it := range l.items {
		parts = append(parts, b.style(badges[it.index]).Render(it.text))
	}
	if l.tail != "" {
		st := b.Styles.Badge
		if l.down > 0 {
			st = b.Styles.BadgeWarn
		}
		parts = append(parts, st.Render(l.tail))
	}
	return strings.Join(parts, " ")
}

// style is a badge's colour: it only repeats what the glyph already says.
func (b Bar) style(bd Badge) lipgloss.Style {
	st := b.Styles.Badge
	switch {
	case bd.Health.Connected():
		st = b.Styles.BadgeOK
	case bd.Health.AuthFailed():
		st = b.Styles.BadgeBad
	case bd.Health.Down():
		st = b.Styles.BadgeWarn
	}
	if bd.Focused {
		st = st.Inherit(b.Styles.BadgeFocused).Bold(true).Underline(true)
	}
	return st
}

// formKind is how much of one badge is drawn, richest first.
type formKind int

const (
	formFull  formKind = iota // name, glyph and word, unread count: "Work ● connected 4"
	formShort                 // glyph, name, unread count: "● Work 4"
	formGlyph                 // the glyph alone: "●"
)

// form is a badge's kind and the most columns its name may take.
type form struct {
	kind  formKind
	nameW int
}

// barStep is one candidate layout of the whole bar: the form of every
// healthy badge and of every degraded one, and how many columns must stay
// free.
type barStep struct {
	healthy, degraded form
	slack             int
}

// Name widths of the steps.
const (
	nameWide  = 16 // a longer name is always cut
	nameFull  = 4  // the narrowest name of a full badge, as before compaction
	nameShort = 3  // the narrowest name of a short badge: two letters and "…"
)

// barSteps are the candidate layouts, richest first; layoutBar takes the
// first that fits. The first ones are the bar as it was before compaction
// existed, to the column (full badges, names shrinking from 16 to 4 columns
// while the bar plus one spare column is too wide; at 4 the bar only has to
// fit), so a bar that fitted then renders the same. After that, healthy
// badges lose detail before degraded ones do: healthy short (names 16 to 3)
// beside degraded full (names up to 16); healthy short (16 to 3) beside
// degraded short (up to 16); healthy glyphs beside degraded short (16 to
// 3); glyphs only.
var barSteps = buildBarSteps()

func buildBarSteps() []barStep {
	var steps []barStep
	for n := nameWide; n >= nameFull; n-- {
		f := form{formFull, n}
		steps = append(steps, barStep{healthy: f, degraded: f, slack: boolInt(n > nameFull)})
	}
	for n := nameWide; n >= nameShort; n-- {
		steps = append(steps, barStep{healthy: form{formShort, n}, degraded: form{formFull, nameWide}})
	}
	for n := nameWide; n >= nameShort; n-- {
		steps = append(steps, barStep{healthy: form{formShort, n}, degraded: form{formShort, nameWide}})
	}
	for n := nameWide; n >= nameShort; n-- {
		steps = append(steps, barStep{healthy: form{kind: formGlyph}, degraded: form{formShort, n}})
	}
	return append(steps, barStep{healthy: form{kind: formGlyph}, degraded: form{kind: formGlyph}})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// barLayout is the bar as plain text: the badges shown (configured order)
// and, when some had to be hidden, a tail counting them.
type barLayout struct {
	step  int // index into barSteps
	items []barItem
	down  int    // degraded accounts hidden
	more  int    // other accounts hidden
	tail  string // "+2 down +9 more", or ""
}

type barItem struct {
	index int // into the badges
	text  string
}

// plain is the bar's text without styles; view draws the same columns.
func (l barLayout) plain() string {
	parts := make([]string, 0, len(l.items)+1)
	for _, it := range l.items {
		parts = append(parts, it.text)
	}
	if l.tail != "" {
		parts = append(parts, l.tail)
	}
	return strings.Join(parts, " ")
}

// layoutBar is the bar's layout, a pure function of badges, width and time:
// the first of barSteps that fits, else the glyphs that fit beside a count
// of the rest (hide).
func layoutBar(badges []Badge, width int, now time.Time) barLayout {
	m := newBarMeasure(badges, now)
	all := make([]int, len(badges))
	for i := range all {
		all[i] = i
	}
	for k, s := range barSteps {
		if m.total(all, s)+s.slack <= width {
			return m.layout(k, all)
		}
	}
	return m.hide(width)
}

// hide keeps as many glyphs as fit beside the count of the others. Whom to
// keep goes by priority: the focused account, then every degraded one,
// then the rest, each in configured order; those kept are drawn in
// configured order. Only when not even the count fits is it cut.
func (m *barMeasure) hide(width int) barLayout {
	glyphs := len(barSteps) - 1
	prio := m.priority()
	for k := len(prio) - 1; k >= 0; k-- {
		keep := slices.Sorted(slices.Values(prio[:k]))
		down, more := m.hidden(prio[k:])
		tail := tailText(down, more)
		if m.total(keep, barSteps[glyphs])+boolInt(k > 0)+textsafe.Width(tail) <= width {
			l := m.layout(glyphs, keep)
			l.down, l.more, l.tail = down, more, tail
			return l
		}
	}
	l := barLayout{step: glyphs}
	l.down, l.more = m.hidden(prio)
	l.tail = strings.TrimRight(textsafe.Fit(tailText(l.down, l.more), width), " ")
	return l
}

// tailText discloses hidden accounts: "+2 down", "+9 more", or both.
func tailText(down, more int) string {
	var s []string
	if down > 0 {
		s = append(s, fmt.Sprintf("+%d down", down))
	}
	if more > 0 {
		s = append(s, fmt.Sprintf("+%d more", more))
	}
	return strings.Join(s, " ")
}
