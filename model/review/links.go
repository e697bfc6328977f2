package review

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/publicsuffix"
)

// Link is one link of a message: what the reader sees and where it goes.
type Link struct {
	Text, Target string
}

// htmlLinks is every <a href> of an HTML part with the text inside it,
// nested tags (<b>, <span>) included, from x/net/html's parse: the same
// tree a mail reader builds, so no markup trick hides an anchor from it.
func htmlLinks(src string) []Link {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return nil // html.Parse fails only on a read error
	}
	var out []Link
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			for _, at := range n.Attr {
				if at.Namespace == "" && strings.EqualFold(at.Key, "href") {
					out = append(out, Link{Text: nodeText(n), Target: at.Val})
					break
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// nodeText is the text under n, as the reader sees it (the tags' text
// joined; scripts and styles are not shown, so not counted).
func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style"):
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// markdownLink is [text](target) in a text body. Text bodies are not
// markup, so a pattern is the whole parse (RE2: linear in the body).
var markdownLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]\n]+)\]\(([^)\s]+)\)`) })

// textLinks is every markdown-style link of a text body.
func textLinks(body string) []Link {
	var out []Link
	for _, m := range markdownLink().FindAllStringSubmatch(body, -1) {
		out = append(out, Link{Text: m[1], Target: m[2]})
	}
	return out
}

// misleading reports a link whose text names a place other than its
// target: the text reads as a URL or a domain, and its registrable
// domain (publicsuffix: "paypal.com" for "www.paypal.com") is not the
// target's, or the target has no host at all (javascript:, data:). A
// link holding hidden characters (bidi controls, zero-width spaces) is
// misleading whatever it says, since it is not what it shows.
func misleading(l Link) bool {
	if hasHidden(l.Text) || hasHidden(l.Target) {
		return true
	}
	shown, ok := shownHost(l.Text)
	if !ok {
		return false
	}
	target := ""
	if u, err := url.Parse(strings.TrimSpace(l.Target)); err == nil {
		target = u.Hostname()
	}
	if target == "" {
		return true
	}
	return site(shown) != site(target)
}

// shownHost is the host the link text makes a reader expect: the host of
// a URL ("https://paypal.com/login"), or a bare domain ("paypal.com",
// "www.paypal.com/login"). Text that is neither ("click here", a mail
// address) names no host.
func shownHost(text string) (string, bool) {
	t := strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1 // zero-width and bidi characters: invisible, so not what the reader reads
		}
		return r
	}, text))
	if t == "" || strings.ContainsFunc(t, unicode.IsSpace) {
		return "", false
	}
	if i := strings.Index(t, "://"); i > 0 {
		u, err := url.Parse(t)
		if err != nil || u.Hostname() == "" {
			return "", false
		}
		return u.Hostname(), true
	}
	if strings.Contains(t, "@") {
		return "", false
	}
	host := t
	if i := strings.IndexAny(host, "/?#:"); i >= 0 {
		host = host[:i]
	}
	host = strings.TrimSuffix(host, ".")
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return "", false
	}
	for _, l := range labels {
		if l == "" || strings.ContainsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }) {
			return "", false
		}
	}
	// A real top-level domain: "report.pdf" names a file, not a host.
	if _, icann := publicsuffix.PublicSuffix(domainKey(labels[len(labels)-1])); !icann {
		return "", false
	}
	return host, true
}

// site is a host's registrable domain in ASCII ("paypal.com" for
// "WWW.PayPal.com."), or the whole host where the public suffix list
// has none (an IP address, a bare suffix).
func site(host string) string {
	h := domainKey(strings.Trim(host, "[]"))
	if s, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return s
	}
	return h
}
