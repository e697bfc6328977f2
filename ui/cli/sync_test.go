package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/agent"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// `unibox list` and `unibox sync` move only what changed. The first list
// of a 300-message inbox takes one page of a first sync, of --limit (20)
// envelopes, as a listing of 20 would; `unibox sync` finishes it; after another client flags, expunges and
// delivers, the next list brings one envelope, the new message's, where a
// listing would have brought the whole page again, and shows every change.
func TestListAndSyncMoveOnlyWhatChanged(t *testing.T) {
	wire := &imaptest.Wire{}
	srv, err := memimap.Start(memimap.Options{DebugWriter: wire})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "pw", nil); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("m%03d", i), Date: time.Now().Add(time.Duration(i-300) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.OneAccount(t, srv)
	wire.Envelopes()

	out, code, _ := facetest.ListJSON(t, "--config", path, "--limit", "20")
	if subj, _ := facetest.Listed(out); code != launch.ExitOK || len(subj) != 20 || subj[0] != "m299" || subj[19] != "m280" {
		t.Fatalf("first list: exit %d, %v", code, subj)
	}
	if n := wire.Envelopes(); n != 20 {
		t.Fatalf("first list fetched %d envelopes, want a first sync's page of --limit (20)", n)
	}

	accts, code := facetest.SyncJSON(t, "--config", path)
	if code != launch.ExitOK || len(accts) != 1 || accts[0].Method != "sync" || accts[0].Stored != 300 || accts[0].Total != 300 || accts[0].Error != "" {
		t.Fatalf("sync: exit %d, %+v", code, accts)
	}
	if n := wire.Envelopes(); n != 280 {
		t.Fatalf("sync fetched %d envelopes, want the 280 the first list left", n)
	}
	// Nothing changed: nothing moves.
	if accts, _ := facetest.SyncJSON(t, "--config", path); accts[0].Stored != 300 || wire.Envelopes() != 0 {
		t.Fatalf("an unchanged sync: %+v", accts)
	}

	facetest.OtherClient(t, srv, "pw", func(c *imapclient.Client) { flagAndExpunge(t, c, 300, imap.FlagFlagged, 299) })
	if _, err := srv.Append("sam", "INBOX", imaptest.Mail{From: "Bo <bo@example.com>", Subject: "new", Date: time.Now(), Body: "x"}.Bytes(), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	wire.Envelopes()
	out, code, _ = facetest.ListJSON(t, "--config", path, "--limit", "3")
	subj, stale := facetest.Listed(out)
	if code != launch.ExitOK || !slices.Equal(subj, []string{"new", "m299", "m297"}) || slices.Contains(stale, true) || !out.Messages[1].Flagged {
		t.Fatalf("list after another client: exit %d, %v %v %+v", code, subj, stale, out.Messages)
	}
	if n := wire.Envelopes(); n != 1 {
		t.Fatalf("list after another client fetched %d envelopes, want only the new message's", n)
	}
}

// `unibox sync --folder` syncs the folders named, each a row of its own
// (the inbox alone by default); an agent's list_messages of a synced
// folder then reads it from the store at the cost of a sync: no envelope
// when nothing changed.
func TestSyncCommandFolders(t *testing.T) {
	wire := &imaptest.Wire{}
	srv, err := memimap.Start(memimap.Options{DebugWriter: wire})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", "canary-secret-31337", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive}); err != nil {
		t.Fatal(err)
	}
	for folder, n := range map[string]int{"INBOX": 3, "Archive": 250} {
		for i := range n {
			raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("%s %03d", folder, i), Date: time.Now().Add(time.Duration(i-n) * time.Minute), Body: "x"}.Bytes()
			if _, err := srv.Append("sam", folder, raw, nil, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := facetest.OneAccount(t, srv)
	t.Setenv("UNIBOX_TEST_PW", "canary-secret-31337") // the agent's child has this one
	wire.Envelopes()
	accts, code := facetest.SyncJSON(t, "--config", path, "--folder", "INBOX", "--folder", "Archive")
	if code != launch.ExitOK || len(accts) != 2 || accts[0].Folder != "INBOX" || accts[0].Stored != 3 || accts[1].Folder != "Archive" || accts[1].Stored != 250 || accts[1].Total != 250 {
		t.Fatalf("sync of two folders: exit %d, %+v", code, accts)
	}
	if n := wire.Envelopes(); n != 253 {
		t.Fatalf("the sync fetched %d envelopes, want 253", n)
	}
	if accts, _ := facetest.SyncJSON(t, "--config", path); len(accts) != 1 || accts[0].Folder != "INBOX" || wire.Envelopes() != 0 {
		t.Fatalf("the default sync: %+v", accts)
	}
	cs := facetest.MCP(t, path)
	var out agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{Folder: "Archive", Limit: 5}, &out)
	if len(out.Messages) != 5 || out.Messages[0].Subject != "Archive 249" {
		t.Fatalf("list_messages of Archive: %+v", out.Messages)
	}
	if n := wire.Envelopes(); n != 0 {
		t.Fatalf("listing a synced, unchanged folder fetched %d envelopes", n)
	}
}

// `unibox sync` isolates its accounts like every face: one down and one
// hung cost the one that answers nothing (it syncs whole), each reports
// its own class, and an account that cannot sync (a third-party MCP
// server) is listed instead, saying so.
func TestSyncCommandIsolatesAccounts(t *testing.T) {
	path := facetest.ThreeAccounts(t)
	facetest.AddThirdParty(t, path)
	var stdout, stderr bytes.Buffer
	code := cli.Sync([]string{"--json", "--timeout", "5s", "--config", path}, &stdout, &stderr)
	var out struct{ Accounts []cli.SyncJSON }
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	got := map[string]cli.SyncJSON{}
	for _, a := range out.Accounts {
		got[a.Name] = a
	}
	if code != launch.ExitPartial || len(got) != 4 {
		t.Fatalf("exit %d, %+v", code, out.Accounts)
	}
	if w := got["Work"]; w.Method != "sync" || w.Stored != 3 || w.Total != 3 || w.Error != "" || w.State != "connected" {
		t.Fatalf("Work: %+v", w)
	}
	if d := got["Down"]; d.Error == "" || d.ErrorClass != "unavailable" {
		t.Fatalf("Down: %+v", d)
	}
	if h := got["Hung"]; h.Error == "" || h.ErrorClass != "timeout" {
		t.Fatalf("Hung: %+v", h)
	}
	if m := got["Third"]; m.Method != "list" || m.Error == "" || strings.Contains(m.Error, "canary-secret-31337") {
		t.Fatalf("Third: %+v", m)
	}
}
