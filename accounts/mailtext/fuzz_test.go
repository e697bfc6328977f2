package mailtext

import (
	"bytes"
	"testing"
)

// The fuzz targets pin the package's promises for arbitrary input: no
// panic, and nothing unsafe to print. Their seed corpora are committed under
// testdata/fuzz and replay with every plain `go test`.

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s.text))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m := Parse(bytes.NewReader(raw), Options{MaxText: 4096})
		checkMessageSafe(t, m)
		if len(m.Text) > 4096+len(truncatedMark) {
			t.Fatalf("Text is %d bytes, over the cap", len(m.Text))
		}
	})
}

func FuzzHeader(f *testing.F) {
	for _, s := range headerSeeds {
		f.Add(s.text)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Header(in)
		if r := unsafeReason(out, false); r != "" {
			t.Fatalf("Header(%q) = %q: %s", in, out, r)
		}
		for _, a := range Addresses(in) {
			if r := unsafeReason(a.Name, false) + unsafeReason(a.Address, false); r != "" {
				t.Fatalf("Addresses(%q) gave %q: %s", in, a, r)
			}
		}
		if d, ok := Date(in); ok && (d.Year() < 1900 || d.Year() > 9999) {
			t.Fatalf("Date(%q) = %v", in, d)
		}
	})
}

func FuzzHTMLToText(f *testing.F) {
	f.Add("<p>a<script>x</script><a href=\"https://x\">y</a><li>z<pre> q </pre>")
	f.Add("<head><title>t</title><body>\x1b]0;t\x07b")
	f.Fuzz(func(t *testing.T, in string) {
		out := HTMLToText(in)
		if r := unsafeReason(out, true); r != "" {
			t.Fatalf("HTMLToText(%q) = %q: %s", in, out, r)
		}
	})
}
