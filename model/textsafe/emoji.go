package textsafe

import (
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Pictographic reports whether r has Unicode's Extended_Pictographic
// property: a character that can start or continue an emoji ZWJ
// sequence (UTS #51). uniseg holds the table but does not export it; its
// grapheme rule GB11 (Extended_Pictographic ZWJ × Extended_Pictographic)
// joins r, a ZWJ and a known emoji into one cluster exactly when r has
// the property, so the rule answers the question without a second copy
// of the table that could drift from the segmenter's.
func Pictographic(r rune) bool {
	if r < 0xA9 || !utf8.ValidRune(r) {
		return false // no ASCII character has the property; keycap bases are not pictographic
	}
	var buf [12]byte
	n := utf8.EncodeRune(buf[:], r)
	n += copy(buf[n:], "\u200d\U0001F600") // ZWJ, GRINNING FACE
	s := string(buf[:n])
	cluster, _, _, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	return len(cluster) == len(s)
}
