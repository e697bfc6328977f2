package model

import "testing"

func TestSameFolder(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"INBOX", "INBOX", true},
		{"INBOX", "inbox", true},
		{"iNbOx", "Inbox", true},
		{"", "INBOX", true},
		{"", "inbox", true},
		{"Archive", "Archive", true},
		{"Archive", "archive", false},
		{"INBOX/Sub", "inbox/Sub", false}, // only INBOX itself is case-insensitive
		{"INBOX", "INBOXX", false},
		{"Trash", "", false},
	} {
		if got := SameFolder(tt.a, tt.b); got != tt.same {
			t.Errorf("SameFolder(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
		if got := SameFolder(tt.b, tt.a); got != tt.same {
			t.Errorf("SameFolder(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.same)
		}
	}
	for in, want := range map[string]string{"": "INBOX", "inbox": "INBOX", "Inbox": "INBOX", "Archive": "Archive", "inbox.x": "inbox.x"} {
		if got := CanonicalFolder(in); got != want {
			t.Errorf("CanonicalFolder(%q) = %q, want %q", in, got, want)
		}
	}
}
