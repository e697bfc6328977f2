package textsafe

import (
	"fmt"
	"unicode/utf8"
)

// checkSafe returns why s breaks the package's promise, or "" if it keeps
// it. keepNewline allows '\n' (Block's output).
func checkSafe(s string, keepNewline bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && !(keepNewline && c == '\n')) || c == 0x7f {
			return fmt.Sprintf("control byte %#x at %d", c, i)
		}
	}
	for i, r := range s {
		if r >= 0x80 && r <= 0x9f {
			return fmt.Sprintf("C1 control %U at %d", r, i)
		}
		if isBidi(r) {
			return fmt.Sprintf("bidi control %U at %d", r, i)
		}
	}
	return ""
}
