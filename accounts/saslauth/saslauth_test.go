package saslauth

import (
	"errors"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var errRefused = errors.New("refused")

// The client and the XOAUTH2 server end a refusal the way Gmail and
// Dovecot do: a JSON challenge, the client's 0x01, then the protocol's
// failure; a good token logs in at the first response.
func TestXOAuth2ClientAgainstServer(t *testing.T) {
	for _, tc := range []struct {
		name, token string
		wantErr     error
	}{
		{"valid", "good", nil},
		{"refused", "stale", errRefused},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewXOAuth2Server(func(u, tok string) bool { return u == "ann" && tok == "good" }, errRefused)
			c := NewOAuth(XOAuth2, "ann", tc.token)
			mech, ir, err := c.Start()
			if err != nil || mech != XOAuth2 {
				t.Fatalf("start: %q %v", mech, err)
			}
			if ch, done, err := srv.Next(nil); done || err != nil || len(ch) != 0 {
				t.Fatalf("first step: %q %v %v", ch, done, err)
			}
			ch, done, err := srv.Next(ir)
			if tc.wantErr == nil {
				if !done || err != nil {
					t.Fatalf("valid token: done=%v err=%v", done, err)
				}
				return
			}
			if done || err != nil {
				t.Fatalf("refusal must come as a challenge first: done=%v err=%v", done, err)
			}
			resp, err := c.Next(ch)
			if err != nil || string(resp) != "\x01" {
				t.Fatalf("client answer %q %v, want 0x01", resp, err)
			}
			if c.Refusal() == "" {
				t.Fatal("the refusal challenge was not kept")
			}
			if _, done, err := srv.Next(resp); !done || !errors.Is(err, errRefused) {
				t.Fatalf("end: done=%v err=%v, want %v", done, err, errRefused)
			}
		})
	}
}
