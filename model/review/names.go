package review

import (
	"strings"
	"unicode"

	"unibox/model"
)

// Kinds about a recipient's display name (a block of their own).
const (
	// KindNameAddress: the display name holds an address other than the
	// one the mail goes to, as in
	// "bob@uharness.test (Bob, Finance)" <evil@attacker.test>: a reader
	// who takes the name for the address writes to someone else.
	KindNameAddress Kind = "name_address"
)

// NameMark is the mark a's display name calls for in field ("From",
// "To", "Cc", "Reply-To", ...), if any: what the review marks, for a face
// that shows a message's addresses (the message view).
func NameMark(field string, a model.Address) (Mark, bool) { return nameMark(field, a) }

// nameMark is the mark a recipient's display name calls for, if any: it
// names the first address written in the name that is not the one the
// mail goes to. Addresses are compared by AddressKey, so a name that
// repeats its own address in another case or with its domain in Unicode
// or punycode is no mark, while a look-alike (a Cyrillic а, a "+tag", a
// longer domain) is.
func nameMark(field string, a model.Address) (Mark, bool) {
	own := AddressKey(a.Address)
	for _, n := range addressesIn(a.Name) {
		if n.key != own {
			return mark(KindNameAddress, field, a.Address,
				"the name shows another address: "+ShowAddress(n.shown)+", but this goes to "+ShowAddress(a.Address)), true
		}
	}
	return Mark{}, false
}

// nameAddress is an address written in a display name: as written, and
// its AddressKey.
type nameAddress struct{ shown, key string }

// addressesIn is every "local@domain" written in s: a run of characters
// on each side of an at sign, up to what ends an address in a header
// (space, control, <>()[],;:"\ or another at sign). The full-width and
// small at signs (U+FF20, U+FE6B) count, since a reader takes them for
// "@"; the domain's full-width letters and dots are folded by IDNA in
// AddressKey. A side left empty ("@bob", "Bob @ Finance") is no address.
func addressesIn(s string) []nameAddress {
	rs := []rune(s)
	var out []nameAddress
	for i, r := range rs {
		if !isAt(r) {
			continue
		}
		lo, hi := i, i+1
		for lo > 0 && !endsAddress(rs[lo-1]) {
			lo--
		}
		for hi < len(rs) && !endsAddress(rs[hi]) {
			hi++
		}
		local, domain := string(rs[lo:i]), string(rs[i+1:hi])
		if local == "" || strings.Trim(domain, ".") == "" {
			continue
		}
		out = append(out, nameAddress{shown: string(rs[lo:hi]), key: AddressKey(local + "@" + domain)})
	}
	return out
}

func isAt(r rune) bool { return r == '@' || r == '\uFF20' || r == '\uFE6B' }

func endsAddress(r rune) bool {
	return isAt(r) || unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`<>()[],;:"\`, r)
}
