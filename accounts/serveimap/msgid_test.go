package serveimap

import (
	"slices"
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

// find_message answers only the messages whose Message-ID is exactly the
// one asked: IMAP's HEADER search also hits an id that contains it (a
// stranger's `<x-t@corp.example.evil>`, newer, with the higher uid that
// the callers took), and one that differs in case.
func TestFindMessageExact(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		uid := map[string]uint32{}
		for i, id := range []string{"t@corp.example", "x-t@corp.example.evil", "T@corp.example", "t@corp.example.evil"} {
			raw := imaptest.Mail{From: "a@x.org", Subject: "m" + id, Date: time.Now().Add(time.Duration(i) * time.Minute), MessageID: id, Body: "x"}.Bytes()
			uid[id] = b.Seed(t, user, "INBOX", raw)
		}
		for _, tc := range []struct {
			name, ask string
			want      []uint32
		}{
			{"bracketed", "<t@corp.example>", []uint32{uid["t@corp.example"]}},
			{"bare", "t@corp.example", []uint32{uid["t@corp.example"]}},
			{"spaced", "  <t@corp.example>\t", []uint32{uid["t@corp.example"]}},
			{"the decoy itself", "<x-t@corp.example.evil>", []uint32{uid["x-t@corp.example.evil"]}},
			{"local part's case", "T@corp.example", []uint32{uid["T@corp.example"]}},
			{"a substring of every id", "corp.example", nil},
			{"a prefix", "<t@corp.exam>", nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var out imapwire.FindMessageOut
				mustOK(t, "find_message", call(t, cs, "find_message", imapwire.FindMessageIn{Account: "work", MessageID: tc.ask}, &out))
				if !slices.Equal(out.UIDs, tc.want) || out.Folder != "INBOX" {
					t.Fatalf("find_message %q: %s, want uids %v (all: %v)", tc.ask, pretty(out), tc.want, uid)
				}
			})
		}
	})
}
