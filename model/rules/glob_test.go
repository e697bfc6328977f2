package rules

import (
	"regexp"
	"strings"
	"testing"
)

// reference is a glob as a regular expression: the obvious meaning the
// hand-written matcher must agree with.
func reference(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	escaped := false
	for _, r := range glob {
		switch {
		case escaped:
			escaped = false
			b.WriteString(regexp.QuoteMeta(strings.ToLower(string(r))))
		case r == '\\':
			escaped = true
		case r == '*':
			b.WriteString(`.*`)
		case r == '?':
			b.WriteString(`.`)
		default:
			b.WriteString(regexp.QuoteMeta(strings.ToLower(string(r))))
		}
	}
	if escaped {
		b.WriteString(`\\`)
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// The matcher agrees with the glob's regular expression on every pattern
// and text of a small alphabet (and on what the fuzzer finds).
func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{{"a*b", "aab"}, {"*?", ""}, {"?*", "é"}, {"**a", "ba"}, {`a\*`, "a*"}, {"*a*b*", "xaxbx"}, {"a?c", "abc"}, {`\`, `\`}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, text string) {
		if strings.HasPrefix(glob, "re:") {
			return
		}
		p, err := Compile(glob)
		if err != nil {
			return
		}
		want := reference(glob).MatchString(strings.ToLower(text))
		if got := p.Match(text); got != want {
			t.Fatalf("%q matches %q: %v, the regular expression says %v", glob, text, got, want)
		}
	})
}

// Every glob of up to four characters of a*?\ against every text of up to
// four characters of ab, beside the regular expression.
func TestGlobExhaustive(t *testing.T) {
	var all func(alphabet string, n int) []string
	all = func(alphabet string, n int) []string {
		if n == 0 {
			return []string{""}
		}
		out := []string{""}
		for _, s := range all(alphabet, n-1) {
			for _, r := range alphabet {
				out = append(out, s+string(r))
			}
		}
		return out
	}
	globs, texts := dedupe(all(`a*?\`, 4)), dedupe(all("ab", 4))
	for _, g := range globs {
		p, err := Compile(g)
		if err != nil {
			t.Fatal(g, err)
		}
		re := reference(g)
		for _, s := range texts {
			if got, want := p.Match(s), re.MatchString(s); got != want {
				t.Fatalf("%q matches %q: %v, want %v", g, s, got, want)
			}
		}
	}
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
