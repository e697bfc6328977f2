package binarytest

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/command"
	"unibox/ui/facetest"
)

// updating reports -update (registered by charmbracelet/x/exp/golden,
// which this package links through teatest).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenConfig is two accounts with fixed mail and one whose password is
// wrong: every field of the three faces' JSON has a value to pin, and
// none depends on the clock (auth_failed has no cooldown).
func goldenConfig(t *testing.T) string {
	t.Helper()
	srv := facetest.Sam(t, "canary-secret-31337", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash})
	when := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	for i, subj := range []string{"Quarterly report", "Lunch on Friday?", "Invoice 2026-11 (attached)"} {
		m := imaptest.Mail{From: "Ann Lee <ann@example.com>", To: "sam@example.com", Subject: subj, Date: when.Add(time.Duration(i) * time.Hour),
			MessageID: fmt.Sprintf("golden-%d@example.com", i), Body: "Hello Sam,\nsee below.\n"}
		if i == 2 {
			m.Attach = map[string][]byte{"invoice.pdf": []byte("%PDF-1.4 not really")}
		}
		var flags []imap.Flag
		if i == 0 {
			flags = []imap.Flag{imap.FlagSeen, imap.FlagFlagged}
		}
		if _, err := srv.Append("sam", "INBOX", m.Bytes(), flags, when); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("UNIBOX_TEST_PW", "canary-secret-31337")
	account := func(name, password string) string { return facetest.IMAP(name, srv.Port(), password) }
	// The agent face runs as a child with only UNIBOX_TEST_PW: the wrong
	// password comes from a command.
	// Every body fetched in the background, whatever the clock says of
	// the fixed dates (the default keeps 90 days'): the search's snippets
	// are pinned once the fetch has stored them.
	return facetest.Write(t, "[store]\ncache_bodies = true\n"+facetest.Resilience("10m")+
		account("Work", facetest.Env("UNIBOX_TEST_PW"))+account("Home", facetest.Env("UNIBOX_TEST_PW"))+
		account("Locked", `password_cmd = "echo not-the-password"`))
}

// What changes from run to run: the test server's port, how long a
// probe took (when it took any time), and when a listing was made.
var (
	ports   = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	latency = regexp.MustCompile(`"latency_ms": [1-9]\d*`)
	synced  = regexp.MustCompile(`"synced_at": "[^"]+"`)
)

// checkGolden compares got, with ports and latencies blanked, byte for byte with
// testdata/name.golden (-update rewrites it).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	got = ports.ReplaceAll(got, []byte("127.0.0.1:PORT"))
	got = latency.ReplaceAll(got, []byte(`"latency_ms": MEASURED`))
	got = synced.ReplaceAll(got, []byte(`"synced_at": "WHEN"`))
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s ./ui/binarytest -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from %s:\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

// The JSON of `list --json`, `status --json` and `unibox mcp` is a public
// interface: every field name and value is pinned byte for byte.
func TestFaceJSONGoldens(t *testing.T) {
	path := goldenConfig(t)
	for _, face := range []struct{ name, cmd string }{{"list", "list"}, {"status", "status"}} {
		var out, errb bytes.Buffer
		command.Main([]string{face.cmd, "--json", "--config", path}, &out, &errb)
		checkGolden(t, face.name+".json", out.Bytes())
	}
	cs := facetest.MCP(t, path)
	// The tools' schemas are what an agent reads first.
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas, _ := json.MarshalIndent(tools.Tools, "", "  ")
	checkGolden(t, "mcp_tools.json", append(schemas, '\n'))
	var listed struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
	}
	waitForSnippets(t, cs, 2)
	for _, call := range []struct {
		tool string
		args any
	}{
		{"inbox_summary", map[string]any{"max_per_account": 2}},
		{"list_messages", map[string]any{}},
		{"account_status", map[string]any{}},
		{"search", map[string]any{"query": "Invoice"}},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
		if err != nil {
			t.Fatalf("%s: %v", call.tool, err)
		}
		structured, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
		if call.tool == "list_messages" {
			json.Unmarshal(structured, &listed)
		}
		checkGolden(t, "mcp_"+call.tool+".json", fmt.Appendf(nil, "is_error: %v\ntext:\n%s\nstructured:\n%s\n", res.IsError, accounts.ResultText(res), structured))
	}
	if len(listed.Messages) == 0 {
		t.Fatal("list_messages listed nothing")
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_message", Arguments: map[string]any{"id": listed.Messages[0].ID}})
	if err != nil {
		t.Fatal(err)
	}
	structured, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
	checkGolden(t, "mcp_get_message.json", fmt.Appendf(nil, "is_error: %v\ntext:\n%s\nstructured:\n%s\n", res.IsError, accounts.ResultText(res), structured))
}

// waitForSnippets waits until the agent face's background body fetch
// has stored the bodies a search for Invoice finds (n hits, each with a
// snippet): the fetch begins at launch and runs beside the calls.
func waitForSnippets(t *testing.T, cs *mcp.ClientSession, n int) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "Invoice"}})
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Messages []struct {
				Snippet string `json:"snippet"`
			} `json:"messages"`
		}
		raw, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(raw, &out)
		have := 0
		for _, m := range out.Messages {
			if m.Snippet != "" {
				have++
			}
		}
		if have == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the background fetch stored %d of %d bodies a search finds", have, n)
		}
	}
}
