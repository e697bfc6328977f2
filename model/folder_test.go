package model

import (
	"fmt"
	"testing"
	"time"
)

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

// A page of the inbox spelt "inbox" continues older pages of "INBOX": the
// rows paged in before are kept, not dropped as another folder's.
func TestInboxPageOfAnySpellingKeepsOlderPages(t *testing.T) {
	in := NewInbox([]string{"Work"})
	in.Replace("Work", []Message{msg("Work", 10, time.Hour, true), msg("Work", 9, 2*time.Hour, true)}, true)
	in.AppendOlder("Work", []Message{msg("Work", 8, 3*time.Hour, true)}, false, 9)
	page := []Message{msg("Work", 11, 0, false), msg("Work", 10, time.Hour, true)}
	for i := range page {
		page[i].ID.Folder = "inbox"
	}
	in.Replace("Work", page, true)
	if got := fmt.Sprint(subjects(in.Rows())); got != "[Work 11 Work 10 Work 9 Work 8]" {
		t.Fatalf("older pages of INBOX lost under a page of \"inbox\": %s", got)
	}
}
