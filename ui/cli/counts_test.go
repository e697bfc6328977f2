package cli_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/ui/cli"
	"unibox/ui/facetest"
)

// statusJSON runs `unibox status --json` on path: each account's line.
func statusJSON(t *testing.T, path string) []cli.StatusJSON {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cli.Status([]string{"--json", "--config", path, "--timeout", "15s"}, &stdout, &stderr)
	var out struct{ Accounts []cli.StatusJSON }
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || len(out.Accounts) != 1 {
		t.Fatalf("status: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	return out.Accounts
}

// Issue 37 item 4: `status` says INBOX's unread count, the folder's own,
// though `list` stored a 50-row page of its 1,000: the server's while the
// store holds a part (and it follows another client's reads), the store's
// once `sync` filled it, which holds with the server gone. The table says
// it too. A real serve-imap child on a loopback server.
func TestStatusSaysTheInboxsUnreadCount(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	facetest.BigInbox(t, srv, 1000, 600)
	path := facetest.OneAccount(t, srv)
	if out, code, stderr := facetest.ListJSON(t, "--config", path, "--limit", "50"); len(out.Messages) != 50 {
		t.Fatalf("list: %d messages, exit %d: %s", len(out.Messages), code, stderr)
	}
	readTen := func() {
		facetest.OtherClient(t, srv, "pw", func(c *imapclient.Client) {
			uids, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
			if err != nil {
				t.Fatal(err)
			}
			set := imap.UIDSetNum(uids.AllUIDs()[:10]...) // the oldest: none of them stored
			if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, step := range []struct {
		what  string
		do    func()
		state string
		want  int
	}{
		{"a page stored", func() {}, "connected", 600},
		{"ten read elsewhere", readTen, "connected", 590},
		{"synced whole, the server gone", func() {
			if lines, code := facetest.SyncJSON(t, "--config", path); code != 0 {
				t.Fatalf("sync: exit %d: %+v", code, lines)
			}
			srv.Refuse()
			srv.DropAll()
		}, "cooling_down", 590},
	} {
		step.do()
		st := statusJSON(t, path)[0]
		if st.State != step.state || st.Unread == nil || *st.Unread != step.want || !st.UnreadExact {
			t.Fatalf("%s: %s, unread %v exact %v; want %s, %d exact (%s)", step.what, st.State, st.Unread, st.UnreadExact, step.state, step.want, st.Error)
		}
	}
	var stdout, stderr bytes.Buffer
	cli.Status([]string{"--config", path, "--timeout", "15s"}, &stdout, &stderr)
	if lines := strings.Split(stdout.String(), "\n"); len(lines) < 2 || !strings.Contains(lines[0], "UNREAD") || !strings.Contains(lines[1], " 590 ") {
		t.Fatalf("the table:\n%s", stdout.String())
	}
}
