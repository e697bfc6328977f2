package cli_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// search runs `unibox search` and returns its JSON, exit code and stderr.
func search(t *testing.T, args ...string) (cli.SearchJSON, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Search(append([]string{"--json"}, args...), &stdout, &stderr)
	var out cli.SearchJSON
	if stdout.Len() > 0 {
		if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
			t.Fatalf("search %q: %v\n%s", args, err, stdout.String())
		}
	}
	return out, code, stderr.String()
}

func subjects(out cli.SearchJSON) []string {
	var s []string
	for _, m := range out.Messages {
		s = append(s, m.Subject)
	}
	return s
}

// `unibox search` answers from the local store with the server gone:
// words folded (koln finds Köln), fields, prefixes, attachment names,
// Cc, negation after --, newest first; none found exits 1, a folder the
// store does not hold exits 3 with the hits all the same and says which,
// and a bad query exits 2 naming the token and its column.
func TestSearchOfflineFromTheStore(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	for i, m := range []imaptest.Mail{
		{From: "Ann <ann@example.com>", Subject: "Budget for Köln", Body: "numbers"},
		{From: "Bob Ströme <bob@example.org>", Subject: "Lunch", Body: "noon", Headers: map[string]string{"Cc": "Zoë Quist <zoe@example.net>"}},
		{From: "Ann <ann@example.com>", Subject: "Invoices", Body: "see attached", Attach: map[string][]byte{"invoice-2026.pdf": []byte("%PDF-1.4")}},
		{From: "Carl <carl@example.com>", Subject: "Budget, again", Body: "more numbers"},
	} {
		m.Date = time.Now().Add(time.Duration(i-4) * time.Hour)
		if _, err := srv.Append("sam", "INBOX", m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.OneAccount(t, srv)
	if _, code, _ := facetest.ListJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("the listing that fills the store: exit %d", code)
	}
	srv.Close() // offline from here on

	for _, tt := range []struct {
		args []string
		want []string
		code int
	}{
		{[]string{"koln"}, []string{"Budget for Köln"}, launch.ExitOK},
		{[]string{"budget"}, []string{"Budget, again", "Budget for Köln"}, launch.ExitOK},
		{[]string{"from:ann", "budg*"}, []string{"Budget for Köln"}, launch.ExitOK},
		{[]string{"cc:zoe"}, []string{"Lunch"}, launch.ExitOK},
		{[]string{"filename:invoice"}, []string{"Invoices"}, launch.ExitOK},
		{[]string{"has:attachment", "OR", "lunch"}, []string{"Invoices", "Lunch"}, launch.ExitOK},
		{[]string{"--", "budget", "-carl"}, []string{"Budget for Köln"}, launch.ExitOK},
		{[]string{"--limit", "1", "budget"}, []string{"Budget, again"}, launch.ExitOK},
		{[]string{"--limit", "1", "ann OR budget"}, []string{"Budget, again"}, launch.ExitOK},
		{[]string{"--rank", "--limit", "1", "ann OR budget"}, []string{"Budget for Köln"}, launch.ExitOK}, // both words
		{[]string{"zeppelin"}, nil, launch.ExitNone},
		{[]string{"--account", "Work", "account:work", "lunch"}, []string{"Lunch"}, launch.ExitOK},
	} {
		out, code, stderr := search(t, append([]string{"--config", path}, tt.args...)...)
		if code != tt.code || !slices.Equal(subjects(out), tt.want) {
			t.Errorf("search %q: exit %d, %q; want exit %d, %q\n%s", tt.args, code, subjects(out), tt.code, tt.want, stderr)
		}
		if tt.code == launch.ExitOK && (!out.Covered.Complete || len(out.Covered.Missing) != 0) {
			t.Errorf("search %q: not covered: %+v", tt.args, out.Covered)
		}
	}
	out, code, stderr := search(t, "--config", path, "folder:Archive", "OR", "lunch")
	if code != launch.ExitPartial || !slices.Equal(subjects(out), []string{"Lunch"}) || out.Covered.Complete ||
		len(out.Covered.Missing) != 1 || out.Covered.Missing[0].Folder != "Archive" || !strings.Contains(stderr, "Work/Archive: not in the local store") {
		t.Errorf("a folder not stored: exit %d, %q, %+v\n%s", code, subjects(out), out.Covered, stderr)
	}
	m := out.Messages[0]
	if m.ID == "" || m.Account != "Work" || m.Folder != "INBOX" || m.UID == 0 || m.ThreadID == "" || m.From.Address != "bob@example.org" || m.Date == "" {
		t.Errorf("a hit lacks list's fields: %+v", m)
	}
	for _, bad := range [][]string{{}, {"from:"}, {"(budget"}, {"--limit", "0", "x"}} {
		_, code, stderr := search(t, append([]string{"--config", path}, bad...)...)
		if code != launch.ExitUsage || stderr == "" {
			t.Errorf("search %q: exit %d, stderr %q; want 2 and a reason", bad, code, stderr)
		}
	}
	if _, _, stderr := search(t, "--config", path, "from:"); !strings.Contains(stderr, `"from:" at column 1`) {
		t.Errorf("a bad query's error names no token and column: %q", stderr)
	}
}
