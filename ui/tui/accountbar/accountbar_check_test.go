package accountbar

import (
	"slices"
	"strings"
	"testing"

	"unibox/model/textsafe"
)

// checkLayout asserts what the bar promises, measuring independently of
// barMeasure: one line within the width; every account shown or counted,
// the degraded ones in "down"; each step taken only when every earlier one
// does not fit; when hiding, one more account would not fit, and the
// focused, then the degraded ones, are the last to go.
func checkLayout(t *testing.T, badges []Badge, width int, l barLayout) {
	t.Helper()
	p := l.plain()
	if strings.ContainsAny(p, "\r\n") || textsafe.Width(p) > width {
		t.Fatalf("%d columns (of %d) or not one line: %q", textsafe.Width(p), width, p)
	}
	var shown []int
	shownBad := 0
	for _, it := range l.items {
		bd := badges[it.index]
		shown = append(shown, it.index)
		if bd.Health.Degraded() {
			shownBad++
		}
		if want := NewBadgeParts(bd, barNow).text(formFor(bd, barSteps[l.step])); it.text != want {
			t.Fatalf("badge %d is %q, step %s draws %q", it.index, it.text, stepName(badges, l.step), want)
		}
		if !strings.Contains(it.text, bd.Health.Glyph()) {
			t.Fatalf("badge %q lacks its glyph", it.text)
		}
	}
	if !slices.IsSorted(shown) || len(slices.Compact(slices.Clone(shown))) != len(shown) {
		t.Fatalf("badges out of configured order: %v", shown)
	}
	totalBad := 0
	for _, bd := range badges {
		totalBad += boolInt(bd.Health.Degraded())
	}
	if shownBad+l.down != totalBad || len(shown)+l.down+l.more != len(badges) {
		t.Fatalf("%d shown (%d degraded) +%d down +%d more, of %d (%d degraded): %q", len(shown), shownBad, l.down, l.more, len(badges), totalBad, p)
	}
	if (l.down+l.more > 0) != (l.tail != "") || l.tail != tailText(l.down, l.more) {
		t.Fatalf("tail %q for +%d down +%d more", l.tail, l.down, l.more)
	}
	for k := range l.step {
		if w := textsafe.Width(drawAll(badges, barSteps[k])); w+barSteps[k].slack <= width {
			t.Fatalf("took %s although %s fits (%d of %d columns)", stepName(badges, l.step), stepName(badges, k), w, width)
		}
	}
	if l.down+l.more == 0 {
		return
	}
	if l.step != len(barSteps)-1 || textsafe.Width(drawAll(badges, barSteps[l.step])) <= width {
		t.Fatalf("hid accounts at step %s although all glyphs fit", stepName(badges, l.step))
	}
	checkHidden(t, badges, width, l)
}

// checkHidden: the focused badge is kept whenever any is, no healthy one is
// kept while a degraded one is hidden, and one more would not fit.
func checkHidden(t *testing.T, badges []Badge, width int, l barLayout) {
	t.Helper()
	shown := map[int]bool{}
	for _, it := range l.items {
		shown[it.index] = true
	}
	for i, bd := range badges {
		if bd.Focused && !shown[i] && len(shown) > 0 {
			t.Fatalf("hid the focused %q but kept others: %q", bd.Name, l.plain())
		}
		if shown[i] && !bd.Focused && !bd.Health.Degraded() && l.down > 0 {
			t.Fatalf("kept the healthy %q while a degraded one is hidden: %q", bd.Name, l.plain())
		}
	}
	next := -1 // the first hidden one by priority: focused, degraded, rest
	for i, bd := range badges {
		if shown[i] {
			continue
		}
		if next < 0 || bd.Focused || bd.Health.Degraded() && !badges[next].Focused && !badges[next].Health.Degraded() {
			next = i
		}
	}
	shown[next] = true
	var parts []string
	for i, bd := range badges {
		if shown[i] {
			parts = append(parts, NewBadgeParts(bd, barNow).text(form{kind: formGlyph}))
		}
	}
	down, more := l.down, l.more
	if badges[next].Health.Degraded() {
		down--
	} else {
		more--
	}
	if rest := tailText(down, more); rest != "" {
		parts = append(parts, rest)
	}
	if w := textsafe.Width(strings.Join(parts, " ")); w <= width {
		t.Fatalf("hid %q although it fits (%d of %d columns): %q", badges[next].Name, w, width, l.plain())
	}
}

// drawAll is every badge in step s, one space apart, built afresh.
func drawAll(badges []Badge, s barStep) string {
	parts := make([]string, len(badges))
	for i, bd := range badges {
		parts[i] = NewBadgeParts(bd, barNow).text(formFor(bd, s))
	}
	return strings.Join(parts, " ")
}

func formFor(bd Badge, s barStep) form {
	if bd.Health.Degraded() {
		return s.degraded
	}
	return s.healthy
}

// TestBadgeWidthIsSumOfParts: layoutBar measures a badge as the sum of its
// parts; that holds for names that could join their neighbours into one
// grapheme cluster (marks, joiners, selectors, flags, jamo, prepend).
func TestBadgeWidthIsSumOfParts(t *testing.T) {
	names := append([]string{"\u0903abc", "\u0301x", "\u200dx", "x\u200d", "\ufe0fx", "\U0001F1E6", "a\U0001F1E6",
		"\u0600", "x\u0600", "\u0e33x", "\u1100", "x\u1100", "\u1161x", "\u0915\u094d", "👍\u200d", "\U0001F3FB",
		"\u20e3x", "x\u0301\u0301\u0301", "👩‍👩‍👧 family", "🇯🇵 Tokyo", "\x1b[31mred\x1b[0m", ""}, barNames...)
	for _, name := range names {
		for _, bd := range []Badge{{Name: name, Health: barStates[0], Unread: 12, Focused: true}, {Name: name, Health: barStates[1]}} {
			p := NewBadgeParts(bd, barNow)
			for _, f := range []form{{formFull, 16}, {formFull, 4}, {formShort, 16}, {formShort, 3}, {formShort, 1}, {kind: formGlyph}} {
				text := p.text(f)
				if got, want := p.width(f), textsafe.Width(text); got != want {
					t.Errorf("%q as %v: parts sum to %d columns, %q is %d", name, f, got, text, want)
				}
				if w := textsafe.Width(text + " " + text); w != 2*textsafe.Width(text)+1 {
					t.Errorf("%q beside itself is %d columns, not %d", text, w, 2*textsafe.Width(text)+1)
				}
			}
		}
	}
}
