// Package filename makes the name a mail gives an attachment safe to
// save under: a sender chooses that name, and several clients write it
// as given (a path out of the folder, a name that hides its real
// extension behind a right-to-left override, a dot file). Pure: it
// names files, it never touches one.
package filename

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxBytes bounds a safe name: under every common file system's limit
// of 255 bytes, with room for " (99)" and a download tool's own suffix.
const MaxBytes = 200

// Fallback replaces a name that is empty, or reserved, once made safe.
const Fallback = "attachment"

// maxExt is the longest extension kept apart when a name is cut: longer
// "extensions" are part of the name ("report.final-version-for-review").
const maxExt = 16

// Safe returns name made safe to create in a folder: a single path
// element (no separators, no ".."), no leading dot (no hidden or
// relative file), no control, bidi or zero-width character (which would
// show a name other than the real one), at most MaxBytes bytes of valid
// UTF-8 with the extension kept, and Fallback (with the extension, if
// any) for an empty or reserved name. Safe(Safe(x)) == Safe(x).
func Safe(name string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(name, "_") {
		switch {
		case hidden(r):
			// dropped: it changes how the name reads, not what it says
		case strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteByte('_') // separators, and what Windows refuses
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	s = strings.Trim(s, " .") // leading: hidden files; trailing: Windows drops them
	stem, ext := split(s)
	stem = strings.TrimRight(stem, " .")
	if stem == "" || reserved(stem) {
		stem = Fallback
	}
	return fit(stem, ext, "")
}

// Numbered is name (already Safe) with " (n)" before its extension, the
// n-th choice when name exists: "report (1).pdf". n of 0 is name itself.
// It stays within MaxBytes.
func Numbered(name string, n int) string {
	if n <= 0 {
		return name
	}
	stem, ext := split(name)
	return fit(stem, ext, " ("+strconv.Itoa(n)+")")
}

// split cuts s before its extension, when it has a short one after a
// non-empty stem.
func split(s string) (stem, ext string) {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 || len(s)-i > maxExt || len(s)-i < 2 || strings.ContainsRune(s[i:], ' ') {
		return s, ""
	}
	return s[:i], s[i:]
}

// fit joins stem, suffix and ext, cutting the stem (at a rune boundary)
// so that the whole stays within MaxBytes.
func fit(stem, ext, suffix string) string {
	room := MaxBytes - len(ext) - len(suffix)
	if len(stem) > room {
		stem = stem[:room]
		for len(stem) > 0 && !utf8.ValidString(stem) {
			stem = stem[:len(stem)-1]
		}
		stem = strings.TrimRight(stem, " .")
		if stem == "" {
			stem = Fallback
		}
	}
	return stem + suffix + ext
}

// hidden reports characters that do not show as themselves: controls
// (C0, C1, DEL), format characters (Cf: bidi overrides and isolates,
// zero-width space and joiners, the byte order mark, soft hyphen), line
// and paragraph separators, and private-use and unassigned code points.
func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
		unicode.In(r, unicode.Zl, unicode.Zp, unicode.Co) || r == utf8.RuneError ||
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
}

// reserved reports names Windows gives to devices, whatever their
// extension (a file saved on a shared or synced folder must open there
// too): CON, PRN, AUX, NUL, COM1-9, LPT1-9.
func reserved(stem string) bool {
	base, _, _ := strings.Cut(strings.ToUpper(strings.TrimRight(stem, " ")), ".")
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		return base[3] >= '1' && base[3] <= '9'
	}
	return false
}
