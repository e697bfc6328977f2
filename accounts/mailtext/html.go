package mailtext

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"unibox/model/textsafe"
)

// HTMLToText renders HTML mail as readable plain text. It uses the x/net/html
// tokenizer rather than the full parser: mail HTML is often malformed, and
// the tokenizer never builds a tree, so its cost stays linear however deep or
// broken the markup.
//
// Script, style, head, title, template and noscript contents and comments
// are dropped; block elements start new lines and paragraphs start new
// paragraphs; list items get "• "; a link is shown as "text <url>" when the
// URL is http, https or mailto and differs from its text (other schemes, like
// javascript:, are never shown); entities are decoded; whitespace is
// collapsed except inside pre. The result is passed through textsafe.Block.
func HTMLToText(s string) string {
	r := htmlRenderer{}
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break // io.EOF, or the tokenizer's buffer limit: keep what we have
		}
		r.token(z, tt)
	}
	r.endLink()
	return textsafe.Block(r.out.String())
}

// skipped are the elements whose content is never shown.
var skipped = atomSet(atom.Script, atom.Style, atom.Head, atom.Title, atom.Template, atom.Noscript)

// paragraphs are block elements that get a blank line around them; lines
// are block elements that only start a new line.
var (
	paragraphs = atomSet(atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Blockquote, atom.Pre, atom.Table, atom.Ul, atom.Ol, atom.Dl, atom.Hr,
		atom.Address, atom.Fieldset)
	lines = atomSet(atom.Div, atom.Br, atom.Li, atom.Tr, atom.Dt, atom.Dd,
		atom.Section, atom.Article, atom.Header, atom.Footer, atom.Nav, atom.Aside,
		atom.Main, atom.Center, atom.Form, atom.Figure, atom.Figcaption, atom.Caption,
		atom.Tbody, atom.Thead, atom.Tfoot, atom.Details, atom.Summary)
)

func atomSet(as ...atom.Atom) map[atom.Atom]bool {
	m := make(map[atom.Atom]bool, len(as))
	for _, a := range as {
		m[a] = true
	}
	return m
}

// htmlRenderer accumulates text while walking the tokens.
type htmlRenderer struct {
	out      strings.Builder
	skip     int    // depth inside skipped elements
	pre      int    // depth inside pre
	space    bool   // a collapsed space is pending
	href     string // URL of the open link, if any
	linkFrom int    // out.Len() where the open link's text starts
}

func (r *htmlRenderer) token(z *html.Tokenizer, tt html.TokenType) {
	switch tt {
	case html.TextToken:
		if r.skip == 0 {
			r.text(z.Text())
		}
	case html.StartTagToken, html.SelfClosingTagToken:
		name, hasAttr := z.TagName()
		tag := atom.Lookup(name) // 0 for unknown tags, which are inline
		if skipped[tag] {
			if tt == html.StartTagToken {
				r.skip++
			}
			return
		}
		if tag == atom.Body && r.skip > 0 {
			r.skip = 0 // an unclosed <head> must not hide the body
		}
		r.start(z, tag, hasAttr)
	case html.EndTagToken:
		name, _ := z.TagName()
		tag := atom.Lookup(name)
		if skipped[tag] {
			r.skip = max(r.skip-1, 0)
			return
		}
		r.end(tag)
	}
}

func (r *htmlRenderer) start(z *html.Tokenizer, tag atom.Atom, hasAttr bool) {
	switch {
	case tag == atom.Br:
		r.newline()
		return
	case paragraphs[tag]:
		r.paragraph()
	case lines[tag]:
		r.newline()
	case tag == atom.Td || tag == atom.Th:
		r.space = true
	}
	switch tag {
	case atom.Li:
		r.out.WriteString("• ")
	case atom.Pre:
		r.pre++
	case atom.A:
		r.endLink()
		r.href = ""
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = z.TagAttr()
			if string(k) == "href" {
				r.href = strings.TrimSpace(string(v))
			}
		}
		r.linkFrom = r.out.Len()
	}
}

func (r *htmlRenderer) end(tag atom.Atom) {
	switch {
	case tag == atom.A:
		r.endLink()
	case tag == atom.Pre:
		r.pre = max(r.pre-1, 0)
	}
	switch {
	case paragraphs[tag]:
		r.paragraph()
	case lines[tag]:
		r.newline()
	}
}
