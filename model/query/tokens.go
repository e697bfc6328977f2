package query

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// What a match is, in one place: the index writes these tokens, a query
// is cut into the same ones, and the brute-force oracle of the tests
// compares the same ones, so the three cannot disagree on a definition.
//
//   - Text is folded: compatibility-decomposed (NFKD: "ﬁ" is "fi", "Ａ"
//     is "a"), combining marks dropped ("Köln" is "koln"), composed
//     again (Hangul syllables, which NFKD cut into jamo), then case
//     folded ("Straße" is "strasse"), then the Latin letters that carry
//     no mark to drop spelled as people type them without one: "Ærø"
//     is "aero", "Łódź" is "lodz", "œuvre" is "oeuvre" (unspelled).
//   - A token is a run of letters, digits and spacing marks (the vowel
//     signs of Indic scripts); everything else separates.
//   - Han, Kana and Hangul carry no spaces between words, so each of
//     their characters is a token of its own and a query of them matches
//     as a phrase of consecutive characters: any substring of a run, one
//     character included. (A trigram index misses one- and two-character
//     queries; single characters as tokens cost more postings, which
//     FTS5's phrase matching walks in a few milliseconds.)

// TokensVersion names this definition of a token. The store keeps the
// version its index was built with and builds it again when this one is
// newer (a query folded one way finds nothing in an index folded
// another): bump it whenever Tokens changes what a word is.
const TokensVersion = 2

// unspelled are the folded letters that NFKD does not decompose into a
// base letter and a mark, as they are written without one.
var unspelled = strings.NewReplacer("æ", "ae", "ø", "o", "œ", "oe", "ł", "l", "đ", "d", "ð", "d", "þ", "th", "ħ", "h", "ı", "i", "ŀ", "l", "ŧ", "t")

// folder folds case the Unicode way (ß to ss, final sigma), unlike
// strings.ToLower. A cases.Caser keeps state: one per call.
func folder() cases.Caser { return cases.Fold() }

// Fold returns s folded as the index folds it: no marks, no case.
func Fold(s string) string {
	if isASCII(s) {
		// Most header text: NFKD and NFC leave ASCII as it is, and
		// folding its case is lowering A-Z (TestFoldASCIIFastPath holds
		// the two paths together). Indexing spends most of its time here.
		return strings.ToLower(s)
	}
	d := norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return unspelled.Replace(folder().String(norm.NFC.String(b.String())))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Tokens cuts s into the index's tokens (folded).
func Tokens(s string) []string {
	var out []string
	f := Fold(s)
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, f[start:end])
			start = -1
		}
	}
	for i, r := range f {
		switch {
		case isCJK(r):
			flush(i)
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mc, r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(f))
	return out
}

// isCJK says whether r is written without spaces between words: Han
// (with its radicals), Hiragana, Katakana, Hangul and Bopomofo.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo)
}

// IndexText is s as the index stores it: its tokens separated by single
// spaces. FTS5's ascii tokenizer then finds exactly these tokens: it
// splits on ASCII punctuation and spaces only (a token holds none), and
// takes every other character as part of a word, whatever Unicode
// version its tables would know (unicode61's might call a newer letter
// a separator and cut a token the oracle keeps whole).
func IndexText(s string) string { return strings.Join(Tokens(s), " ") }
