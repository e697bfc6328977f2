package mailtext

import (
	"strings"
	"testing"
)

func TestHTMLToText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text", "hello", "hello"},
		{"paragraphs", "<p>one</p><p>two</p>", "one\n\ntwo"},
		{"br and div", "a<br>b<div>c</div>d", "a\nb\nc\nd"},
		{"whitespace collapsed", "<p>  a \n\t b  </p>", "a b"},
		{"inline tags keep spaces", "a <b>bold</b> and <i>it</i>.", "a bold and it."},
		{"entities", "<p>caf&eacute; &amp; &lt;tag&gt; &#x1F44D; &nbsp;x</p>", "café & <tag> 👍 \u00a0x"},
		{"script dropped", "<p>hi</p><script>alert('SECRET')</script><p>bye</p>", "hi\n\nbye"},
		{"style dropped", "<style>p{color:red} .SECRET{}</style>text", "text"},
		{"head dropped", "<html><head><title>SECRET</title><meta x></head><body>body</body></html>", "body"},
		{"unclosed head", "<head><title>SECRET</title><body>body", "body"},
		{"template noscript", "<template>SECRET</template><noscript>SECRET</noscript>ok", "ok"},
		{"comments dropped", "a<!-- SECRET -->b", "ab"},
		{"list items", "<ul><li>one</li><li>two</li></ul>", "• one\n• two"},
		{"ordered list", "<ol><li>x<li>y</ol>after", "• x\n• y\n\nafter"},
		{"headings", "<h1>Title</h1>text", "Title\n\ntext"},
		{"table", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>", "a b\nc d"},
		{"pre keeps whitespace", "<pre>a  b\n  c</pre>", "a  b\n  c"},
		{"blockquote", "x<blockquote>quoted</blockquote>y", "x\n\nquoted\n\ny"},
		{"link differs", `<a href="https://example.com/x">click here</a>`, "click here <https://example.com/x>"},
		{"link same as text", `<a href="https://example.com/">https://example.com/</a>`, "https://example.com/"},
		{"link trailing slash", `<a href="https://example.com/">https://example.com</a>`, "https://example.com"},
		{"mailto", `<a href="mailto:a@x.org">a@x.org</a> or <a href="mailto:a@x.org">me</a>`, "a@x.org or me <mailto:a@x.org>"},
		{"javascript link hidden", `<a href="javascript:alert(1)">click</a>`, "click"},
		{"data link hidden", `<a href="data:text/html,x">click</a>`, "click"},
		{"link with entity", `<a href="https://x.org/?a=1&amp;b=2">go</a>`, "go <https://x.org/?a=1&b=2>"},
		{"empty link", `<a href="https://x.org/"><img src="x"></a>`, "<https://x.org/>"},
		{"unclosed link", `<a href="https://x.org/">go`, "go <https://x.org/>"},
		{"escape sequences", "<p>a\x1b[2Jb</p><p>\x1b]0;evil\x07c</p>", "ab\n\nc"},
		{"escape in href", "<a href=\"https://x.org/\x1b[2J\">go</a>", "go <https://x.org/>"},
		{"bidi", "<p>a\u202eb</p>", "ab"},
		{"NUL", "a\x00b", "ab"},
		{"many blank paragraphs", strings.Repeat("<p></p><br>", 50) + "x", "x"},
		{"broken markup", "<p<b>x</p </div> y <", "x\n\ny <"},
		{"uppercase tags", "<P>A</P><SCRIPT>SECRET</SCRIPT>", "A"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HTMLToText(tt.in)
			if got != tt.want {
				t.Errorf("HTMLToText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
