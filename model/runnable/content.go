package runnable

import (
	"bufio"
	"bytes"
	"io"

	"github.com/gabriel-vasile/mimetype"
)

// sniffed are the media types (gabriel-vasile/mimetype's names, which
// also match their aliases) each kind's content may be. Text and office
// packages are judged apart (checkText, checkOOXML, checkODF).
var sniffed = map[kind][]string{
	pdf:     {"application/pdf"},
	picture: {"image/png", "image/apng", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/tiff"},
	audio:   {"audio/mpeg", "application/ogg", "audio/ogg", "audio/flac", "audio/wav", "audio/x-m4a", "audio/mp4", "audio/webm"},
	video:   {"video/mp4", "video/x-m4v", "video/webm", "video/matroska", "video/ogg", "application/ogg"},
}

// checkSniffed refuses head unless the sniffer names one of k's types.
func checkSniffed(head []byte, k kind) error {
	m := mimetype.Detect(head)
	for _, t := range sniffed[k] {
		if m.Is(t) {
			return nil
		}
	}
	return notKind(k, m.String())
}

// runs names what a file's start makes it when it would run something
// whatever its name says: a program, a script, a desktop launcher. "" when
// none. It words the commonest refusals plainly; the allow list refuses
// the rest anyway.
func runs(head []byte) string {
	h := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	switch {
	case bytes.HasPrefix(h, []byte("\x7fELF")):
		return "a Linux program (ELF)"
	case bytes.HasPrefix(h, []byte("MZ")):
		return "a Windows program (PE)"
	case hasAny(h, "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe", "\xca\xfe\xba\xbf"):
		return "a macOS program (Mach-O) or Java class"
	case bytes.HasPrefix(h, []byte("#!")):
		return "a script (#!)"
	}
	if m := launcherMarker(h); m != "" {
		return "a desktop launcher (" + m + ")"
	}
	return ""
}

func hasAny(h []byte, prefixes ...string) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(h, []byte(p)) {
			return true
		}
	}
	return false
}

// markers start the groups of a freedesktop launcher (.desktop,
// .directory, KDE's older files). A line starting with one of them,
// anywhere, makes a file a launcher to some parser: lenient ones skip
// whatever comes before the first group.
var markers = [][]byte{[]byte("[Desktop Entry]"), []byte("[KDE Desktop Entry]"), []byte("[Desktop Action")}

// launcherMarker is the first marker that starts a line of b, or "".
func launcherMarker(b []byte) string {
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		line = bytes.TrimLeft(line, " \t\r\f\v\x00\xef\xbb\xbf")
		for _, m := range markers {
			if bytes.HasPrefix(line, m) {
				return string(m)
			}
		}
	}
	return ""
}

// textTypes are what the sniffer may call a text file's start: plain
// text, and the two tabular forms of it it tells apart (a note with a
// comma on each line sniffs as CSV). Markup, scripts and every other
// text format are refused.
var textTypes = []string{"text/plain", "text/csv", "text/tab-separated-values"}

// checkText refuses a text file unless its start sniffs as plain text,
// and, read whole, it holds no NUL byte (a binary tail behind a text
// head) and no launcher marker at the start of any line.
func checkText(head []byte, r io.ReaderAt, size int64) error {
	m := mimetype.Detect(head)
	if !isText(m) {
		return notKind(text, m.String())
	}
	sc := bufio.NewScanner(io.NewSectionReader(r, 0, size))
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	sc.Split(scanLines)
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.IndexByte(line, 0) >= 0 {
			return notKind(text, "binary (a NUL byte past its start)")
		}
		if mk := launcherMarker(line); mk != "" {
			return &Refused{Reason: "is a desktop launcher (" + mk + " on a line of its own)"}
		}
	}
	return sc.Err()
}

// isText reports a sniffed type on the text allow list.
func isText(m *mimetype.MIME) bool {
	for _, t := range textTypes {
		if m.Is(t) {
			return true
		}
	}
	return false
}

// scanLines is bufio.ScanLines that also cuts an overlong line into
// pieces of the buffer's size instead of failing (each piece is checked
// as a line: stricter, never laxer).
func scanLines(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	if len(data) == 64<<10 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
