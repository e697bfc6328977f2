package mailtext

import (
	"encoding/base64"
	"strings"

	"unibox/model/textsafe"
)

// Header decodes a header field value for display: RFC 2047 encoded words in
// any charset that go-message/charset knows, B or Q encoded, are decoded, and
// the result is passed through textsafe.Line.
//
// It is more forgiving than mime.WordDecoder, which fails the whole header
// when one word names an unknown charset:
//   - a word that cannot be decoded (bad base64, unknown encoding letter) is
//     kept literally, and the rest of the header is still decoded;
//   - a word in an unknown charset is decoded best-effort: its bytes are read
//     as UTF-8 when valid, else as Latin-1;
//   - adjacent encoded words are joined without the whitespace between them,
//     as RFC 2047 section 6.2 requires, and their bytes are joined before
//     charset conversion, so a multi-byte character split across two words
//     (a common encoder bug) still comes out whole;
//   - raw 8-bit text outside encoded words is read as UTF-8 when valid, else
//     as Latin-1.
func Header(s string) string {
	d, _ := decodeWords(s)
	return textsafe.Line(d)
}

// wordRun collects the bytes of adjacent encoded words in one charset.
type wordRun struct {
	charset string
	data    []byte
}

// decodeWords does the work of Header without the final textsafe pass and
// also returns the problems met (unknown charsets), for Parse to report.
func decodeWords(s string) (string, []string) {
	if !strings.Contains(s, "=?") {
		return fallbackText([]byte(s)), nil
	}
	var (
		out      strings.Builder
		run      wordRun
		problems []string
		lastWord bool // whether the previous token was a decoded word
	)
	flush := func() {
		if run.charset == "" {
			return
		}
		text, problem := decodeCharset(run.data, run.charset)
		out.WriteString(text)
		if problem != "" {
			problems = append(problems, problem)
		}
		run = wordRun{}
	}
	literal := func(t string) {
		flush()
		out.WriteString(fallbackText([]byte(t)))
	}

	i := 0
	for i < len(s) {
		start := strings.Index(s[i:], "=?")
		if start < 0 {
			break
		}
		start += i
		cs, enc, text, end, ok := parseWord(s, start)
		if !ok {
			literal(s[i : start+2])
			lastWord = false
			i = start + 2
			continue
		}
		between := s[i:start]
		if !lastWord || strings.TrimLeft(between, " \t\r\n") != "" {
			literal(between)
		}
		data, ok := decodeWordText(enc, text)
		if !ok {
			literal(s[start:end])
			lastWord = false
			i = end
			continue
		}
		if cs != run.charset {
			flush()
		}
		run.charset = cs
		run.data = append(run.data, data...)
		lastWord = true
		i = end
	}
	literal(s[i:])
	return out.String(), problems
}

// maxCharsetName bounds the charset name of an encoded word, so that a stray
// "=?" in a long header does not make us scan the rest of it for a '?'.
const maxCharsetName = 64

// parseWord parses the encoded word "=?charset?enc?text?=" starting at s[i].
// Text may hold spaces (some encoders leave them in Q words) but not '?',
// which no valid encoded text contains. It returns the normalised charset,
// the encoding letter, the text and the index after the word.
func parseWord(s string, i int) (cs string, enc byte, text string, end int, ok bool) {
	j := i + 2
	q := strings.IndexByte(s[j:], '?')
	if q <= 0 || q > maxCharsetName || strings.ContainsAny(s[j:j+q], " \t\r\n=") {
		return "", 0, "", 0, false
	}
	cs = normCharset(s[j : j+q])
	j += q + 1
	if cs == "" || j+1 >= len(s) || s[j+1] != '?' {
		return "", 0, "", 0, false
	}
	enc = s[j] | 0x20 // lower case
	j += 2
	q = strings.IndexByte(s[j:], '?')
	if q < 0 || j+q+1 >= len(s) || s[j+q+1] != '=' {
		return "", 0, "", 0, false
	}
	return cs, enc, s[j : j+q], j + q + 2, true
}

// decodeWordText undoes the B or Q encoding of an encoded word's text.
// Missing base64 padding is tolerated; other bad base64 is not, since
// guessing would print garbage where the literal word is more useful.
func decodeWordText(enc byte, text string) ([]byte, bool) {
	switch enc {
	case 'b':
		t := strings.TrimRight(strings.Join(strings.Fields(text), ""), "=")
		b, err := base64.RawStdEncoding.DecodeString(t)
		return b, err == nil
	case 'q':
		return qDecode(text), true
	}
	return nil, false
}

// qDecode decodes RFC 2047 "Q" text leniently: '_' is a space, "=XX" a byte,
// and a '=' not followed by two hex digits is kept as it is.
func qDecode(s string) []byte {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_':
			b = append(b, ' ')
		case c == '=' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return b
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
