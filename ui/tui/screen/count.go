package screen

import (
	"fmt"
	"time"
)

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

// Ago is t's age as a view's line says it: "just now", "5m ago", "3h
// ago", else the day ("Dec 2"); "no date" for none.
func Ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case t.IsZero():
		return "no date"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return t.Format("Jan 2")
}
