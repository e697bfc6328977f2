package review

import (
	"testing"

	"unibox/model"
	"unibox/model/textsafe"
)

// Whatever a hostile draft holds, Check does not panic, and every mark is
// one line a terminal shows as it is, with nothing hidden in it: each
// string from the draft (a display name too) went through Visible.
func FuzzCheck(f *testing.F) {
	f.Add("x@evil\u202e.example", "[pay\u200bpal.com](javascript:x)", `<a href="http://e.example"><b>bank</b>.com</a>`)
	f.Add("a@日本ご.jp", "\x1b]52;c;AAAA\x07 [a.com](http://b.com\x1b[2J)", "<a href=\x00>x.com</a><a")
	f.Add("bob@xn--bcher-kva.example", "\r\n[\r](\r)", "<svg><a href='//x.example'>y.example</a></svg>")
	f.Fuzz(func(t *testing.T, addr, body, html string) {
		m := Message{To: []model.Address{{Name: html, Address: addr}}, Cc: addrs(body), Body: body, HTML: html}
		for _, mk := range Check(m, Known{Unchecked: addr + "\u200b"}) {
			if textsafe.Line(mk.Text) != mk.Text || hasHidden(mk.Text) {
				t.Fatalf("mark %q is not terminal-safe, or hides a character", mk.Text)
			}
		}
	})
}
