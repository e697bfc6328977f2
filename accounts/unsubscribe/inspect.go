package unsubscribe

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"net/url"
	"strings"
)

// Limits on what Inspect takes from a message: a header block bigger
// than any real one, and List-Unsubscribe's URIs (RFC 2369 gives no
// bound; mail clients cut much shorter).
const (
	MaxHeaderBytes = 1 << 20
	MaxURIBytes    = 2048
	MaxOptions     = 8
	maxSignatures  = 8 // DKIM signatures verified; the rest are ignored
)

// ErrHeaderTooLarge: the header block is over MaxHeaderBytes.
var ErrHeaderTooLarge = errors.New("header block too large")

// Inspect reads one raw RFC 5322 message and says what unsubscribing from
// it could do. lookupTXT is the DNS TXT lookup for the DKIM keys (nil:
// the system's); tests inject one. The message is streamed: only its
// header block is held.
func Inspect(r io.Reader, lookupTXT func(domain string) ([]string, error)) (Info, error) {
	br := bufio.NewReader(r)
	raw, err := readHeaderBlock(br)
	if err != nil {
		return Info{}, err
	}
	info, counts := parseHeaders(raw)
	info.DKIM = verify(io.MultiReader(bytes.NewReader(raw), br), lookupTXT, info, counts)
	return info, nil
}

// readHeaderBlock reads up to and including the blank line that ends the
// header (or to the end of a message that has no body).
func readHeaderBlock(br *bufio.Reader) ([]byte, error) {
	var raw []byte
	lineStart := true
	for {
		chunk, err := br.ReadSlice('\n')
		raw = append(raw, chunk...)
		if len(raw) > MaxHeaderBytes {
			return nil, fmt.Errorf("message: %w (over %d bytes)", ErrHeaderTooLarge, MaxHeaderBytes)
		}
		if lineStart && (string(chunk) == "\r\n" || string(chunk) == "\n") {
			return raw, nil
		}
		switch {
		case err == nil:
			lineStart = true
		case errors.Is(err, bufio.ErrBufferFull):
			lineStart = false
		case errors.Is(err, io.EOF):
			return raw, nil
		default:
			return nil, fmt.Errorf("read message: %w", err)
		}
	}
}

// parseHeaders takes From and the two List-Unsubscribe fields from the
// verifier's view of the header (readFields). A line that view cannot
// read as a field, or one of the three fields given twice (which one did
// the signature cover?), is in Unsafe: no one-click, and the repeated
// field is not taken. counts is how often each of the three appears, for
// the signature check.
func parseHeaders(raw []byte) (Info, map[string]int) {
	info := Info{Options: []Option{}}
	fields, bad := readFields(raw)
	info.Unsafe = append(info.Unsafe, bad...)
	counts := map[string]int{}
	for _, name := range once {
		counts[name] = len(values(fields, name))
	}
	switch from := values(fields, "From"); len(from) {
	case 0:
	case 1:
		if addrs, err := mail.ParseAddressList(from[0]); err == nil && len(addrs) == 1 {
			info.From = addrs[0].Address
			if at := strings.LastIndexByte(info.From, '@'); at >= 0 {
				info.FromDomain = strings.ToLower(strings.TrimSuffix(info.From[at+1:], "."))
			}
		}
	default:
		info.Unsafe = append(info.Unsafe, fmt.Sprintf("%d From fields: no sender taken", len(from)))
	}
	switch lu := values(fields, "List-Unsubscribe"); len(lu) {
	case 0:
	case 1:
		info.Options, info.Problems = parseList(lu[0])
	default:
		info.Unsafe = append(info.Unsafe, fmt.Sprintf("%d List-Unsubscribe fields: none taken", len(lu)))
	}
	switch post := values(fields, "List-Unsubscribe-Post"); len(post) {
	case 0:
	case 1:
		info.OneClickHeader = post[0] == OneClickValue
	default:
		info.Unsafe = append(info.Unsafe, fmt.Sprintf("%d List-Unsubscribe-Post fields: no one-click", len(post)))
	}
	return info, counts
}

// parseList reads RFC 2369's "<uri>, <uri>" (whitespace inside the angle
// brackets is ignored, as the RFC says).
func parseList(v string) ([]Option, []string) {
	opts, problems := []Option{}, []string(nil)
	for len(opts) < MaxOptions {
		open := strings.IndexByte(v, '<')
		if open < 0 {
			break
		}
		end := strings.IndexByte(v[open:], '>')
		if end < 0 {
			problems = append(problems, "List-Unsubscribe: a URI has no closing '>'")
			break
		}
		uri := strings.Join(strings.Fields(v[open+1:open+end]), "")
		v = v[open+end+1:]
		if len(uri) > MaxURIBytes {
			problems = append(problems, fmt.Sprintf("List-Unsubscribe: a URI of %d bytes, over the limit of %d bytes", len(uri), MaxURIBytes))
			continue
		}
		u, err := url.Parse(uri)
		if err != nil || u.Scheme == "" {
			problems = append(problems, "List-Unsubscribe: not a URI: "+quoteShort(uri))
			continue
		}
		opts = append(opts, Option{Scheme: strings.ToLower(u.Scheme), URI: uri})
	}
	return opts, problems
}

// quoteShort quotes at most 80 bytes of s, for a problem line.
func quoteShort(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return fmt.Sprintf("%q", s)
}
