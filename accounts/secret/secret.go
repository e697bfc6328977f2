// Package secret is the one place secrets are scrubbed from text: error
// messages, stderr tails, anything stored or shown. One rule set: every
// occurrence of a secret of three bytes or more, or of one of its forms
// (the encodings a server may echo it back in, see Forms), becomes "***",
// longest first (so one that contains another goes whole); shorter ones
// would blank out ordinary words and are left.
package secret

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Mask replaces a scrubbed secret.
const Mask = "***"

// minLen is the shortest secret scrubbed.
const minLen = 3

// Redact scrubs every one of secrets, in each of its forms, from text.
func Redact(text string, secrets ...string) string {
	var fs []form
	for _, s := range secrets {
		fs = append(fs, forms(s)...)
	}
	return replace(text, sorted(fs))
}

// Box remembers the secrets an account has handed out (a password fetched
// on connect, an access token, a refresh token, a client secret: anything
// a *_cmd printed or a token endpoint returned), in memory only, to scrub
// them and their forms from any text later. It is safe for concurrent
// use; the zero value is empty.
type Box struct {
	mu      sync.Mutex
	secrets []string
	forms   []form // every secret's forms, longest first
}

// Add remembers s and its forms.
func (b *Box) Add(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(s) < minLen || slices.Contains(b.secrets, s) {
		return
	}
	b.secrets = append(b.secrets, s)
	b.forms = sorted(append(b.forms, forms(s)...))
}

// Redact scrubs every secret remembered so far, in each of its forms,
// from text.
func (b *Box) Redact(text string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return replace(text, b.forms)
}

// sorted is fs longest first, without repeats.
func sorted(fs []form) []form {
	slices.SortFunc(fs, func(x, y form) int {
		return cmp.Or(len(y.text)-len(x.text), strings.Compare(x.text, y.text), cmp.Compare(b2i(y.cut), b2i(x.cut)))
	})
	return slices.CompactFunc(fs, func(x, y form) bool { return x.text == y.text })
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// replace masks each of fs in text, longest first; then what is left of
// a form that may be cut short: its start or its end, minCut characters
// or more.
func replace(text string, fs []form) string {
	for _, f := range fs {
		text = strings.ReplaceAll(text, f.text, Mask)
	}
	for _, f := range fs {
		if f.cut && len(f.text) > minCut {
			text = maskCut(text, f.text)
		}
	}
	return text
}

// maskCut masks every run of text that is a start of f, or an end of f,
// of minCut characters or more.
func maskCut(text, f string) string {
	var left strings.Builder
	for {
		i := strings.Index(text, f[:minCut])
		if i < 0 {
			break
		}
		n := minCut
		for n < len(f) && i+n < len(text) && text[i+n] == f[n] {
			n++
		}
		left.WriteString(text[:i] + Mask)
		text = text[i+n:]
	}
	text = left.String() + text
	right := ""
	for {
		i := strings.LastIndex(text, f[len(f)-minCut:])
		if i < 0 {
			break
		}
		end, n := i+minCut, minCut
		for n < len(f) && i > 0 && text[i-1] == f[len(f)-n-1] {
			i, n = i-1, n+1
		}
		right = Mask + text[end:] + right
		text = text[:i]
	}
	return text + right
}
