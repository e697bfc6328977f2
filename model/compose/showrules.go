package compose

import (
	"fmt"
	"unicode"

	"unibox/model/textsafe"
)

// The rule of CheckShowable, turned around in issue 35: not a list of
// bad code points (a list always misses one: tag characters carried a
// whole hidden sentence past the review) but every code point that draws
// nothing or whose look is not known, by Unicode property:
// Default_Ignorable_Code_Point (Go's Cf, Other_Default_Ignorable_Code_Point
// and Variation_Selector), controls, line separators, private use,
// noncharacters and code points unassigned in Go's Unicode tables, plus
// U+2800 (a blank braille cell), and any character of width 0 that has no
// character before it to sit on. Two exceptions, for everyone alike: ZWJ
// and VS15/VS16 inside an emoji sequence (UTS #51), ZWNJ/ZWJ between two
// letters of a script that joins or forms conjuncts (Arabic, Persian,
// Indic, ...), where they change the shape drawn.

const (
	zwnj = '\u200c'
	zwj  = '\u200d'
	vs15 = '\ufe0e'
	vs16 = '\ufe0f'
)

// scanner holds what judging a rune needs of the runes before it on its
// line. Only accepted runes count, so that what dropInvisible keeps is
// judged the same way again.
type scanner struct {
	multiline bool
	line      int  // 1-based in a multi-line field, 0 in a one-line one
	prev      rune // the last accepted rune on the line, 0 at its start
	base      rune // the last accepted rune that is drawn on its own, 0 at a line start or after a tab
}

func newScanner(multiline bool) scanner {
	if multiline {
		return scanner{multiline: true, line: 1}
	}
	return scanner{}
}

// judge returns "" and takes r into the state when r is shown as it is,
// else what r is, for the error. next is the rune after r (0 at the end).
func (sc *scanner) judge(r, next rune) string {
	switch {
	case r >= 0x20 && r < 0x7f:
		sc.prev, sc.base = r, r
		return ""
	case r == '\n' && sc.multiline:
		sc.line++
		sc.prev, sc.base = 0, 0
		return ""
	case r == '\r' && sc.multiline && next == '\n':
		return ""
	case r == '\t' && sc.multiline:
		sc.prev, sc.base = r, 0
		return ""
	}
	if common(r) {
		sc.prev, sc.base = r, r
		return ""
	}
	what, drawn := sc.what(r, next)
	if what == "" {
		sc.prev = r
		if drawn {
			sc.base = r
		}
	}
	return what
}

// what names r when it is refused; drawn reports an accepted r that is a
// character of its own (not a mark, joiner or selector on another).
func (sc *scanner) what(r, next rune) (what string, drawn bool) {
	switch {
	case unicode.Is(unicode.Cc, r):
		return "a control character", false
	case unicode.In(r, unicode.Zl, unicode.Zp):
		return "a Unicode line separator", false
	case isBidiControl(r):
		return "a bidi control", false
	case r == zwj && (sc.emojiJoin(next) || sc.scriptJoin(next)), r == zwnj && sc.scriptJoin(next):
		return "", false
	case r == zwj || r == zwnj:
		return "a zero-width joiner outside an emoji sequence or a joining script", false
	case (r == vs15 || r == vs16) && sc.presentation(next):
		return "", false
	case unicode.Is(unicode.Variation_Selector, r):
		return "a variation selector outside an emoji sequence", false
	case r >= 0xE0000 && r <= 0xE007F:
		return "a tag character", false
	case r == '\u200b' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
		return "a zero-width character", false
	case unicode.Is(unicode.Cf, r):
		return "an invisible format character", false
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), r == '\u2800':
		return "a blank character that draws nothing (a filler)", false
	case unicode.Is(unicode.Co, r):
		return "a private-use character (it looks like whatever the reader's font makes of it)", false
	case r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
		return "a noncharacter", false
	case !assigned(r):
		return fmt.Sprintf("a code point not assigned in Unicode %s, the version unibox checks against (a newer emoji cannot be told from an invisible character)", unicode.Version), false
	case unicode.In(r, unicode.M, unicode.Lm, unicode.Sk) && textsafe.Width(string(r)) == 0:
		// Only marks and modifiers have no width of their own (a skin
		// tone, a halfwidth voicing mark); FuzzCheckShowable holds
		// every other accepted rune to a width of at least 1.
		if sc.base == 0 {
			return "a combining character with no character to sit on", false
		}
		return "", false
	}
	return "", true
}

// common reports the runes most text is made of that are drawn on their
// own, assigned in every Unicode version and none of them default
// ignorable: Latin-1 and Latin Extended letters, Greek and Cyrillic, CJK
// ideographs, kana and Hangul syllables. It spares them the property
// lookups: the review screen checks its text on every redraw.
func common(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0x2FF:
		return r != 0xAD // soft hyphen
	case r >= 0x391 && r <= 0x3A1, r >= 0x3A3 && r <= 0x3FF, r >= 0x400 && r <= 0x482, r >= 0x48A && r <= 0x52F:
		return true
	case r >= 0x3041 && r <= 0x3096, r >= 0x30A1 && r <= 0x30FA, r >= 0x4E00 && r <= 0x9FFF, r >= 0xAC00 && r <= 0xD7A3:
		return true
	}
	return false
}

// assigned reports a code point Go's tables give a category other than
// Cn (unassigned). Cc, Cf and Co were judged before.
func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
}

// isModifier is an emoji skin-tone modifier (U+1F3FB..U+1F3FF).
func isModifier(r rune) bool { return r >= 0x1F3FB && r <= 0x1F3FF }

// emojiJoin reports a ZWJ inside an emoji ZWJ sequence: after an emoji
// (bare, with VS16, or with a skin tone) and before another.
func (sc *scanner) emojiJoin(next rune) bool {
	if !textsafe.Pictographic(next) || !assigned(next) {
		return false
	}
	if textsafe.Pictographic(sc.prev) {
		return true
	}
	return (sc.prev == vs16 || isModifier(sc.prev)) && textsafe.Pictographic(sc.base)
}

// presentation reports a VS15/VS16 that asks for an emoji's text or emoji
// look: right after an emoji, or in a keycap (a digit, # or *, the
// selector, U+20E3). A digit's selector outside a keycap changes nothing
// drawn, so it could carry a hidden bit: refused.
func (sc *scanner) presentation(next rune) bool {
	if textsafe.Pictographic(sc.prev) {
		return true
	}
	keycap := sc.prev == '#' || sc.prev == '*' || (sc.prev >= '0' && sc.prev <= '9')
	return keycap && next == '\u20e3'
}

// joiningScripts are the scripts whose letters join (Arabic and the
// scripts written like it) or form conjuncts (Indic and Southeast Asian),
// where ZWNJ and ZWJ change the shape drawn (Persian "می‌خواهم", a
// Devanagari half form).
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian, unicode.Mandaic,
	unicode.Adlam, unicode.Hanifi_Rohingya, unicode.Phags_Pa, unicode.Manichaean,
	unicode.Psalter_Pahlavi, unicode.Sogdian, unicode.Old_Uyghur, unicode.Chorasmian,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
	unicode.Myanmar, unicode.Khmer, unicode.Tibetan,
}

// scriptJoin reports a ZWNJ or ZWJ between two letters of one joining
// script: the rune before it is a letter or mark of that script (or a mark
// on such a letter: a virama, an Arabic vowel sign), the rune after it a
// letter of the same script.
func (sc *scanner) scriptJoin(next rune) bool {
	if !unicode.IsLetter(next) {
		return false
	}
	of := sc.prev
	if !unicode.IsLetter(of) && unicode.IsMark(of) && !inJoiningScript(of, next) {
		of = sc.base // an inherited mark (Arabic harakat): its letter decides
	}
	return (unicode.IsLetter(of) || unicode.IsMark(of)) && inJoiningScript(of, next)
}

// inJoiningScript reports a and b both in one joining script.
func inJoiningScript(a, b rune) bool {
	for _, s := range joiningScripts {
		if unicode.Is(s, a) {
			return unicode.Is(s, b)
		}
	}
	return false
}

// isBidiControl is every character that changes the order text is drawn
// in without being drawn itself (Unicode's Bidi_Control property).
func isBidiControl(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}
