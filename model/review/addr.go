package review

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// AddressKey is the form two addresses are compared in: the same key, the
// same mailbox.
//
// The domain is compared as DNS does: case-insensitively, and in its
// IDNA (punycode) form, so "bob@Bücher.example" and
// "bob@xn--bcher-kva.example" are one address. The local part is
// case-sensitive by RFC 5321, but every mail system people use treats it
// without case (and compose's reply all does too), so its ASCII letters
// are lowered; nothing else is folded. In particular "+tags", dots and
// non-ASCII case are kept: "bob+x@" is not "bob@" and "Boſ" is not "bos",
// since taking two addresses for one would hide a new recipient, while
// taking one for two only shows a mark too many.
func AddressKey(addr string) string {
	addr = strings.TrimSpace(addr)
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return asciiLower(addr)
	}
	return asciiLower(addr[:at]) + "@" + domainKey(addr[at+1:])
}

// domainKey is the domain's ASCII (punycode) form, lowered, without a
// final dot; a domain IDNA refuses is only lowered (it cannot be
// delivered to, and it stays unlike every domain that can).
func domainKey(d string) string {
	d = strings.TrimSuffix(d, ".")
	if a, err := idna.Lookup.ToASCII(d); err == nil && a != "" {
		return asciiLower(a)
	}
	return asciiLower(d)
}

// asciiLower lowers A-Z only: Unicode case folding maps look-alikes
// together (U+017F ſ folds to s, U+212A K to k).
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ShowAddress is how a mark names an address: made visible (Visible),
// and followed by its domain's punycode form when the domain is not
// ASCII, e.g. "bob@bücher.example (xn--bcher-kva.example)", since the
// punycode is what a look-alike cannot imitate. It is never cut (unlike
// Visible): "bob@uharness.test.<100 letters>.attacker.test" cut to a
// width would show the domain it does not go to.
func ShowAddress(addr string) string {
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || isASCII(addr[at+1:]) {
		return visible(addr, 0)
	}
	return visible(addr, 0) + " (" + visible(punycode(addr[at+1:]), 0) + ")"
}

// punycode is the domain's ASCII form for display, or "invalid IDN: why"
// when IDNA refuses it (which no mail server would deliver to either).
func punycode(d string) string {
	a, err := idna.Lookup.ToASCII(strings.TrimSuffix(d, "."))
	if err != nil {
		if a == "" {
			a = d
		}
		return "not a valid domain name: " + a
	}
	return a
}

// Scripts a domain label may mix without a mark: the combinations UTS #39
// calls "highly restrictive" (Japanese, Chinese and Korean writing mix
// scripts as a rule, and Latin with them).
var allowedMixes = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// mixedScripts is the scripts a domain label mixes beyond allowedMixes
// ("Cyrillic+Latin" for "pаypal" with a Cyrillic а), or "" when none
// does. Common and Inherited runes (digits, hyphens, combining marks)
// belong to every script. Whole-script look-alikes ("аррӏе" all in
// Cyrillic) are not caught here: the punycode next to the name shows them.
func mixedScripts(domain string) string {
	for _, label := range strings.Split(domain, ".") {
		var seen []string
		for _, r := range label {
			if s := scriptOf(r); s != "" && !slices.Contains(seen, s) {
				seen = append(seen, s)
			}
		}
		if len(seen) > 1 && !allowedMix(seen) {
			slices.Sort(seen)
			return strings.Join(seen, "+")
		}
	}
	return ""
}

func scriptOf(r rune) string {
	if r < utf8.RuneSelf {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return "Latin"
		}
		return ""
	}
	if unicode.Is(unicode.Common, r) || unicode.Is(unicode.Inherited, r) {
		return ""
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

func allowedMix(seen []string) bool {
	for _, allowed := range allowedMixes {
		ok := true
		for _, s := range seen {
			if !slices.Contains(allowed, s) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
