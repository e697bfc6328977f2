package serveimap

import (
	"strings"
	"testing"

	"unibox/accounts/imapwire"
)

// The envelope's header block gives References to threading and the
// List-Id, decoded and safe, to rules; one without the other, folded
// lines, an encoded word, a hostile or oversized List-Id.
func TestSummaryFields(t *testing.T) {
	for _, tc := range []struct {
		name, raw, refs, list string
	}{
		{"none", "", "", ""},
		{"both", "References: <a@x> <b@x>\r\nList-Id: Go <go.lists.example>\r\n\r\n", "<a@x> <b@x>", "Go <go.lists.example>"},
		{"folded", "References: <a@x>\r\n <b@x>\r\nList-Id: Go\r\n <go.lists.example>\r\n\r\n", "<a@x> <b@x>", "Go <go.lists.example>"},
		{"encoded", "List-Id: =?utf-8?q?Gr=C3=BC=C3=9Fe?= <g.example>\r\n\r\n", "", "Grüße <g.example>"},
		{"escape", "List-Id: \x1b[2Jevil <e.example>\r\n\r\n", "", "evil <e.example>"},
		{"oversized", "List-Id: " + strings.Repeat("x", 600) + "\r\n\r\n", "", ""},
	} {
		refs, list := summaryFields([]byte(tc.raw))
		if strings.Join(strings.Fields(refs), " ") != tc.refs || list != tc.list {
			t.Errorf("%s: %q, %q; want %q, %q", tc.name, refs, list, tc.refs, tc.list)
		}
	}
}

// sync_folder's headers go into the FETCH command: only field names pass,
// at most MaxSyncHeaders of them; the error quotes what it refuses.
func TestCheckHeaderNames(t *testing.T) {
	for _, ok := range [][]string{nil, {"X-Mailer"}, {"List-Id", "x-spam-flag"}} {
		if err := checkHeaderNames(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	many := make([]string, imapwire.MaxSyncHeaders+1)
	for i := range many {
		many[i] = "X-H"
	}
	for _, bad := range [][]string{{""}, {"X Mailer"}, {"Subject:"}, {"X-\x1b[2J"}, {"X-Mailer)] BODY[]"}, {strings.Repeat("x", 77)}, {"Grüße"}, many} {
		err := checkHeaderNames(bad)
		if err == nil {
			t.Errorf("%q: no error", bad)
			continue
		}
		if strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%q: the error carries the escape: %q", bad, err)
		}
	}
}
