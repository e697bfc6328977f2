package model

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestCheckBytesAtAndOverTheLimit(t *testing.T) {
	for _, tt := range []struct {
		field string
		limit int
	}{{"query", MaxQueryBytes}, {"folder", MaxFolderBytes}, {"ids[0]", MaxIDBytes}} {
		if err := CheckBytes(tt.field, strings.Repeat("é", tt.limit/2)+strings.Repeat("x", tt.limit%2), tt.limit); err != nil {
			t.Errorf("%s at its limit (%d bytes) refused: %v", tt.field, tt.limit, err)
		}
		over := strings.Repeat("x", tt.limit+1)
		err := CheckBytes(tt.field, over, tt.limit)
		var le *LimitError
		if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.Field != tt.field || le.Got != tt.limit+1 {
			t.Fatalf("%s one byte over: %#v", tt.field, err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, tt.field+": ") || !strings.Contains(msg, "limit of "+itoa(tt.limit)+" bytes") || strings.Contains(msg, "xxxx") {
			t.Errorf("the error must name %s and its limit, and not echo the input: %s", tt.field, msg)
		}
	}
	if err := CheckCount("ids", MaxIDsPerCall, MaxIDsPerCall, "ids"); err != nil {
		t.Errorf("%d ids refused: %v", MaxIDsPerCall, err)
	}
	if err := CheckCount("ids", MaxIDsPerCall+1, MaxIDsPerCall, "ids"); err == nil || err.Error() != "ids: 1001 ids, over the limit of 1000 ids" {
		t.Errorf("1001 ids: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A huge or hostile id is quoted by at most a short escaped prefix.
func TestParseMessageIDDoesNotEchoTheInput(t *testing.T) {
	for _, tt := range []struct{ name, id string }{
		{"huge", strings.Repeat("A", 2<<20)},
		{"huge uid", "Work/INBOX/1/" + strings.Repeat("9", 2<<20)},
		{"huge uidvalidity", "Work/INBOX/" + strings.Repeat("9", 2<<20) + "/1"},
		{"huge bad escape", "Work/" + strings.Repeat("%zz", 1<<20) + "/1/1"},
		{"terminal escapes", "\x1b]0;pwned\x07\u202e/INBOX/1/x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMessageID(tt.id)
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if len(msg) > 200 || strings.ContainsAny(msg, "\x1b\x07\u202e") {
				t.Fatalf("the error echoes the input (%d bytes): %.300q", len(msg), msg)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"short":                 `"short"`,
		"\x1b[31mred":           `"\x1b[31mred"`,
		strings.Repeat("é", 30): `"` + strings.Repeat("é", 20) + `"… (60 bytes)`,
		strings.Repeat("a", 41): `"` + strings.Repeat("a", 40) + `"… (41 bytes)`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%.50q) = %s, want %s", in, got, want)
		}
	}
}
