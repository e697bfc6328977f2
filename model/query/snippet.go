package query

import (
	"strings"
	"unicode"
)

// Snippet is about width characters of text around the first word a
// positive text term of n (anywhere or body:) matches, with "…" where it
// was cut; the start of text when none does (the hit was in a header).
// Whitespace runs are one space. The caller makes it safe to show: it is
// mail text.
func Snippet(text string, n Node, width int) string {
	want := wanted(n, false, nil)
	// Words of the text with their byte offsets, cut as Tokens cuts.
	at := -1
	start := -1
	check := func(i, end int) bool {
		for _, tok := range Tokens(text[i:end]) {
			for _, w := range want {
				if tok == w.Tokens[0] || w.Prefix && len(w.Tokens) == 1 && strings.HasPrefix(tok, w.Tokens[0]) {
					return true
				}
			}
		}
		return false
	}
	if len(want) > 0 {
		for i, r := range text {
			word := unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Mn, r)
			switch {
			case isCJK(r):
				if start >= 0 && check(start, i) {
					at = start
				}
				start = -1
				if at < 0 && check(i, i+len(string(r))) {
					at = i
				}
			case word:
				if start < 0 {
					start = i
				}
				continue
			default:
				if start >= 0 && check(start, i) {
					at = start
				}
				start = -1
			}
			if at >= 0 {
				break
			}
		}
		if at < 0 && start >= 0 && check(start, len(text)) {
			at = start
		}
	}
	return around(text, max(at, 0), width)
}

// wanted are the positive text terms of n that look in the body.
func wanted(n Node, negated bool, out []Text) []Text {
	switch n := n.(type) {
	case Text:
		if !negated && (n.Field == Anywhere || n.Field == Body) {
			out = append(out, n)
		}
	case And:
		for _, k := range n.Nodes {
			out = wanted(k, negated, out)
		}
	case Or:
		for _, k := range n.Nodes {
			out = wanted(k, negated, out)
		}
	case Not:
		out = wanted(n.Node, !negated, out)
	}
	return out
}

// around is width characters of text from a little before byte at,
// cut at a space where there is one.
func around(text string, at, width int) string {
	head := strings.Join(strings.Fields(text[:at]), " ")
	if head != "" && strings.TrimRightFunc(text[:at], unicode.IsSpace) != text[:at] {
		head += " "
	}
	rs := []rune(head)
	lead := min(len(rs), width/4)
	before := string(rs[len(rs)-lead:])
	if lead < len(rs) {
		if i := strings.IndexByte(before, ' '); i >= 0 && i < len(before)-1 {
			before = before[i+1:]
		}
		before = "…" + before
	}
	rest := []rune(strings.Join(strings.Fields(text[at:]), " "))
	room := max(width-len([]rune(before)), 1)
	if len(rest) > room {
		return before + string(rest[:room-1]) + "…"
	}
	return before + string(rest)
}

// Places are the account and folder names n asks for (account:,
// folder:, outside any negation); none: every one.
func Places(n Node) (accounts, folders []string) {
	var walk func(Node, bool)
	walk = func(n Node, negated bool) {
		switch n := n.(type) {
		case Place:
			if negated {
				return
			}
			if n.Folder {
				folders = append(folders, n.Name)
			} else {
				accounts = append(accounts, n.Name)
			}
		case And:
			for _, k := range n.Nodes {
				walk(k, negated)
			}
		case Or:
			for _, k := range n.Nodes {
				walk(k, negated)
			}
		case Not:
			walk(n.Node, !negated)
		}
	}
	walk(n, false)
	return accounts, folders
}
