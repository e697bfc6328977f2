package secret

import (
	"sync"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		secrets []string
		want    string
	}{
		{"none", "login failed", nil, "login failed"},
		{"every occurrence", "pw hunter2 echoed hunter2", []string{"hunter2"}, "pw *** echoed ***"},
		{"longest first", "token abcdef", []string{"abc", "abcdef"}, "token ***"},
		{"short secrets left", "a b ab", []string{"ab"}, "a b ab"},
		{"three bytes scrubbed", "key xyz", []string{"xyz"}, "key ***"},
		{"empty secret", "text", []string{""}, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.text, tt.secrets...); got != tt.want {
				t.Errorf("Redact(%q, %q) = %q, want %q", tt.text, tt.secrets, got, tt.want)
			}
			var b Box
			for _, s := range tt.secrets {
				b.Add(s)
				b.Add(s) // twice: remembered once
			}
			if got := b.Redact(tt.text); got != tt.want {
				t.Errorf("Box.Redact(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// A box is filled while errors are being scrubbed: a password fetched on
// a reconnect, a stderr tail read meanwhile.
func TestBoxConcurrent(t *testing.T) {
	var b Box
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { b.Add(string(rune('a'+i)) + "secret") })
		wg.Go(func() { _ = b.Redact("asecret bsecret") })
	}
	wg.Wait()
	if got := b.Redact("asecret hsecret"); got != "*** ***" {
		t.Fatalf("got %q", got)
	}
}
