package mailtext

import (
	"mime"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// parseMediaType parses a Content-Type or Content-Disposition value. It
// tries mime.ParseMediaType first and, where that fails (duplicate or
// malformed parameters, unquoted spaces) or leaves out a parameter (RFC 2231
// values in a charset other than UTF-8, which it silently drops), reads the
// parameters loosely instead. Keys are lower case. ok is false when the value
// was malformed.
func parseMediaType(v string) (typ string, params map[string]string, ok bool) {
	typ, params, err := mime.ParseMediaType(v)
	loose, extended := looseParams(v)
	if err != nil {
		typ, _, _ = strings.Cut(v, ";")
		typ = strings.ToLower(strings.TrimSpace(typ))
		params = loose
	} else {
		for k, val := range loose {
			// mime drops the first piece of a continued RFC 2231 value in
			// another charset than UTF-8, leaving the rest: ours is whole.
			if _, have := params[k]; !have || extended[k] {
				params[k] = val
			}
		}
	}
	return typ, params, err == nil
}

// looseParams reads "; key=value" parameters without failing: values may be
// quoted or not, RFC 2231 extended values (key*=charset'lang'%XX) are decoded
// in any charset, and RFC 2231 continuations (key*0, key*1*...) are joined.
// extended lists the keys that used RFC 2231 syntax.
func looseParams(v string) (params map[string]string, extended map[string]bool) {
	params, extended = map[string]string{}, map[string]bool{}
	type piece struct {
		n       int
		ext     bool
		content string
	}
	cont := map[string][]piece{}
	for _, seg := range splitParams(v)[1:] {
		k, val, found := strings.Cut(seg, "=")
		if !found {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		val = unquote(strings.TrimSpace(val))
		base, idx, ext := splitParamKey(k)
		if base == "" {
			continue
		}
		if idx < 0 {
			if ext {
				params[base] = decode2231(val)
				extended[base] = true
			} else if _, have := params[base]; !have {
				params[base] = val
			}
			continue
		}
		cont[base] = append(cont[base], piece{idx, ext, val})
	}
	for base, pieces := range cont {
		sort.Slice(pieces, func(i, j int) bool { return pieces[i].n < pieces[j].n })
		var raw strings.Builder
		cs := ""
		for i, p := range pieces {
			c := p.content
			if i == 0 && p.ext {
				if parts := strings.SplitN(c, "'", 3); len(parts) == 3 {
					cs, c = parts[0], parts[2]
				}
			}
			if p.ext {
				c = percentDecode(c)
			}
			raw.WriteString(c)
		}
		text := raw.String()
		if cs != "" {
			text, _ = decodeCharset([]byte(text), cs)
		}
		params[base] = text
		extended[base] = true
	}
	return params, extended
}

// splitParamKey splits "name*2*" into ("name", 2, true).
func splitParamKey(k string) (base string, idx int, ext bool) {
	ext = strings.HasSuffix(k, "*")
	k = strings.TrimSuffix(k, "*")
	idx = -1
	if i := strings.IndexByte(k, '*'); i >= 0 {
		n, err := strconv.Atoi(k[i+1:])
		if err != nil || n < 0 || n > 1000 {
			return "", 0, false
		}
		k, idx = k[:i], n
	}
	return k, idx, ext
}

// decode2231 decodes an RFC 2231 extended value "charset'lang'%XX...".
func decode2231(v string) string {
	parts := strings.SplitN(v, "'", 3)
	if len(parts) != 3 {
		return v
	}
	text, _ := decodeCharset([]byte(percentDecode(parts[2])), parts[0])
	return text
}

// percentDecode decodes %XX escapes, keeping malformed ones literally.
func percentDecode(s string) string {
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// splitParams splits a header value at ';' outside quoted strings.
func splitParams(v string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			if quoted {
				i++
			}
		case '"':
			quoted = !quoted
		case ';':
			if !quoted {
				out = append(out, v[start:i])
				start = i + 1
			}
		}
	}
	return append(out, v[start:])
}

// unquote removes the quotes of a quoted string and its backslash escapes;
// an unbalanced quote is just dropped.
func unquote(s string) string {
	if len(s) == 0 || s[0] != '"' {
		return s
	}
	s = strings.TrimSuffix(s[1:], `"`)
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
