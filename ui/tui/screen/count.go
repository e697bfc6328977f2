package screen

import "fmt"

// Count is n with its noun, the singular for one: "1 message", "3
// messages", "0 accounts". noun is the singular; every noun the TUI
// counts takes an s. A header or a status line that counts says it
// through Count, so none reads "1 messages".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
