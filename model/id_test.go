package model

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestMessageIDRoundTrip(t *testing.T) {
	for _, id := range []MessageID{
		{"Work", "INBOX", 1700000000, 42},
		{"a/b c", "Archive/2024", 1, 1},
		{"Yahoo", "Entwürfe:%x", 4294967295, 4294967295},
	} {
		s := id.String()
		got, err := ParseMessageID(s)
		if err != nil || got != id {
			t.Errorf("ParseMessageID(%q) = %+v, %v; want %+v", s, got, err, id)
		}
	}
	for _, bad := range []string{"", "a/b/c", "a/b/x/1", "a/b/1/x", "/INBOX/1/1", "a/b/1/0", "a/%zz/1/1"} {
		if _, err := ParseMessageID(bad); err == nil {
			t.Errorf("ParseMessageID(%q) accepted", bad)
		}
	}
}
