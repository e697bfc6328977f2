package secret

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// Every form a server can echo a secret back in is scrubbed: each test
// builds the echo with the encoder that made it on the wire.
func TestFormsScrubbed(t *testing.T) {
	const pw = `pa"ss\word&X`
	const odd = "ref>>>???~~~token" // its base64 holds '+' and '/'
	const tok = "ya29.a0AfB_byC-tok/en+9="
	b64 := base64.StdEncoding.EncodeToString
	xoauth2 := "user=sam@example.org\x01auth=Bearer " + tok + "\x01\x01"
	bearer := "n,a=sam@example.org,\x01host=127.0.0.1\x01port=143\x01auth=Bearer " + tok + "\x01\x01"
	tests := []struct {
		name, secret, echo string
	}{
		{"plain", pw, "a1 NO you sent: " + pw},
		{"IMAP quoted", pw, `a1 NO you sent: a1 LOGIN "sam" "pa\"ss\\word&X"`},
		{"query escape", tok, "bad grant " + url.Values{"refresh_token": {tok}, "client_id": {"c"}}.Encode()},
		{"path escape", tok, "GET /token/" + url.PathEscape(tok) + " failed"},
		{"JSON escape", pw, `{"error":"bad","password":"pa\"ss\\word\u0026X"}`},
		{"XOAUTH2 initial response", tok, "a1 NO you sent: a1 AUTHENTICATE XOAUTH2 " + b64([]byte(xoauth2))},
		{"OAUTHBEARER initial response", tok, "a1 NO you sent: a1 AUTHENTICATE OAUTHBEARER " + b64([]byte(bearer))},
		{"XOAUTH2 cut short", tok, "a1 NO you sent: a1 AUTHENTICATE XOAUTH2 " + b64([]byte(xoauth2))[:len(b64([]byte(xoauth2)))-5]},
		{"PLAIN", pw, "a1 NO you sent: " + b64([]byte("\x00sam\x00"+pw))},
		{"URL-safe base64", odd, "state=" + base64.RawURLEncoding.EncodeToString([]byte("x"+odd+"yz"))},
		{"base64 cut at the front", tok, "...you sent: " + b64([]byte(xoauth2))[50:]}, // 6 characters into the token
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.echo, tt.secret)
			var b Box
			b.Add(tt.secret)
			if boxed := b.Redact(tt.echo); boxed != got {
				t.Errorf("Box.Redact %q, Redact %q", boxed, got)
			}
			if got == tt.echo || leaks(got, tt.secret) {
				t.Fatalf("Redact(%q) = %q: the secret is still there", tt.echo, got)
			}
		})
	}
}

// A base64'd blob holds the secret at any of three byte offsets, with any
// bytes after it: every one of the nine combinations is caught.
func TestBase64EveryAlignment(t *testing.T) {
	const s = "refresh-Tok3n_value"
	for k := range 3 {
		for tail := range 3 {
			blob := strings.Repeat("u", 7+k) + s + strings.Repeat("\x01", tail)
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding} {
				echo := "echo " + enc.EncodeToString([]byte(blob)) + " end"
				if got := Redact(echo, s); leaks(got, s) {
					t.Errorf("offset %d, tail %d: %q", k, tail, got)
				}
			}
		}
	}
}

// Short secrets give no base64 fragments (a few letters ordinary text
// holds by chance), and ordinary text is left alone.
func TestFormsMinimum(t *testing.T) {
	for _, f := range Forms("abcd") {
		if f != "abcd" && len(f) < minB64 && !strings.ContainsAny(f, `%\"`) {
			t.Errorf("short fragment %q", f)
		}
	}
	if Forms("ab") != nil {
		t.Error("a two-byte secret has forms")
	}
	text := "login failed: AUTHENTICATIONFAILED Invalid credentials (Failure) for user sam"
	if got := Redact(text, "hunter2", "ya29.token-value", `pa"ss\word-X`); got != text {
		t.Errorf("ordinary text changed: %q", got)
	}
}

// leaks reports whether text still shows s: plainly, or in any base64
// alignment of any length, found by decoding every base64 run in text at
// every offset.
func leaks(text, s string) bool {
	for _, f := range []string{s, imapQuoted(s), url.QueryEscape(s), url.PathEscape(s)} {
		if strings.Contains(text, f) {
			return true
		}
	}
	runs := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("+/-_", r))
	})
	for _, run := range runs {
		for off := range 4 {
			for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				r := run[min(off, len(run)):]
				r = r[:len(r)/4*4]
				if b, err := enc.DecodeString(r); err == nil && strings.Contains(string(b), s[1:len(s)-1]) {
					return true
				}
			}
		}
	}
	return false
}

// BenchmarkBoxRedact: a box with a password, a refresh token, a client
// secret and a day of hourly access tokens, scrubbing a 4 KiB stderr tail.
func BenchmarkBoxRedact(b *testing.B) {
	var box Box
	box.Add(`pa"ss\word-X`)
	box.Add("1//0refresh-token-value-abcdefghijklmnopqrstuvwxyz")
	box.Add("client-secret-GOCSPX-abcdefghij")
	for i := range 24 {
		box.Add(fmt.Sprintf("ya29.a0AfB_byC%02d-access-token-value-abcdefghijklmnopqrstuvwxyz0123456789", i))
	}
	text := strings.Repeat("a1 NO [AUTHENTICATIONFAILED] Invalid credentials (Failure) for user sam\n", 56)
	b.ReportAllocs()
	for b.Loop() {
		box.Redact(text)
	}
}
