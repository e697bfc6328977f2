package ui

import (
	"fmt"
	"strings"
	"time"

	"unibox/conn"
	"unibox/model/textsafe"
)

// accountBar renders one badge per account, always visible: name, state
// glyph and word, unread count. The focused account is bracketed (and
// styled), so it stands out without colour too.
type accountBar struct {
	styles Styles
}

type badgeData struct {
	name    string
	status  conn.Status
	unread  int
	focused bool
}

func (b accountBar) view(badges []badgeData, width int, now time.Time) string {
	parts := make([]string, len(badges))
	plain := make([]string, len(badges))
	nameW := 16
	for {
		total := 0
		for i, bd := range badges {
			plain[i] = b.text(bd, nameW, now)
			total += textsafe.Width(plain[i]) + 1
		}
		if total <= width || nameW <= 4 {
			break
		}
		nameW--
	}
	for i, bd := range badges {
		st := b.styles.Badge
		switch {
		case bd.status.State == conn.StateConnected:
			st = b.styles.BadgeOK
		case bd.status.State == conn.StateAuthFailed:
			st = b.styles.BadgeBad
		case down(bd.status.State):
			st = b.styles.BadgeWarn
		}
		if bd.focused {
			st = st.Inherit(b.styles.BadgeFocused).Bold(true).Underline(true)
		}
		parts[i] = st.Render(plain[i])
	}
	line := strings.Join(parts, " ")
	if textsafe.Width(strings.Join(plain, " ")) > width {
		return textsafe.Fit(strings.Join(plain, " "), width)
	}
	return line
}

func (b accountBar) text(bd badgeData, nameW int, now time.Time) string {
	name := textsafe.Line(bd.name)
	if textsafe.Width(name) > nameW {
		name = strings.TrimRight(textsafe.Fit(name, nameW), " ")
	}
	s := fmt.Sprintf("%s %s", name, stateLabel(bd.status, now))
	if bd.unread > 0 {
		s += fmt.Sprintf(" %d", bd.unread)
	}
	if bd.focused {
		return "[" + s + "]"
	}
	return " " + s + " "
}
