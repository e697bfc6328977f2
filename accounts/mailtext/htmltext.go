package mailtext

import "strings"

// This file holds the text-writing half of htmlRenderer.

// text writes character data, collapsing whitespace outside pre.
func (r *htmlRenderer) text(s []byte) {
	if r.pre > 0 {
		r.flushSpace()
		r.out.Write(s)
		return
	}
	for _, c := range s {
		switch c {
		case ' ', '\t', '\n', '\r', '\f': // HTML's whitespace; not U+00A0
			r.space = true
			continue
		}
		if r.space {
			r.flushSpace()
		}
		r.out.WriteByte(c)
	}
}

// flushSpace writes a pending collapsed space, unless the line is empty.
func (r *htmlRenderer) flushSpace() {
	if r.space && !r.atLineStart() {
		r.out.WriteByte(' ')
	}
	r.space = false
}

func (r *htmlRenderer) atLineStart() bool {
	n := r.out.Len()
	return n == 0 || r.out.String()[n-1] == '\n'
}

// newline ends the current line, if it has anything on it.
func (r *htmlRenderer) newline() {
	r.space = false
	if !r.atLineStart() {
		r.out.WriteByte('\n')
	}
}

// paragraph ends the current line and leaves one blank line after it.
func (r *htmlRenderer) paragraph() {
	r.newline()
	s := r.out.String()
	if len(s) > 0 && !strings.HasSuffix(s, "\n\n") {
		r.out.WriteByte('\n')
	}
}

// endLink closes the open link, showing its URL after its text when the URL
// says something the text does not.
func (r *htmlRenderer) endLink() {
	href := r.href
	r.href = ""
	if href == "" || !showableURL(href) {
		return
	}
	text := strings.TrimSpace(r.out.String()[min(r.linkFrom, r.out.Len()):])
	if text == href || "mailto:"+text == href || strings.TrimSuffix(href, "/") == strings.TrimSuffix(text, "/") {
		return
	}
	r.space = false
	if text != "" && !r.atLineStart() {
		r.out.WriteByte(' ')
	}
	r.out.WriteString("<" + href + ">")
}

// showableURL reports the URL schemes worth showing to a reader.
func showableURL(u string) bool {
	l := strings.ToLower(u)
	for _, p := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(l, p) && len(l) > len(p) {
			return true
		}
	}
	return false
}
