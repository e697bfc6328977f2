package main

import (
	"bytes"
	"io"

	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/emersion/go-imap/v2"
	"go.uber.org/goleak"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/launch"
)

// TestMain doubles as the unibox binary for the provider children (they
// run `<test binary> serve-imap ...`), dispatched before m.Run.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "serve-imap" || os.Args[1] == "mcp" || os.Args[1] == "list" || os.Args[1] == "sync" || os.Args[1] == "status") {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "fake-mcp" {
		os.Exit(fakeMCPMain())
	}
	// Nothing a test runs remembers mail in the user's own cache: each
	// test that writes a config gets its own store (writeConfig), and
	// this is the fallback for the rest.
	cache, err := os.MkdirTemp("", "unibox-test-cache-")
	if err != nil {
		panic(err)
	}
	// The go command's build cache defaults to $XDG_CACHE_HOME/go-build:
	// pin it first, or every `go build` of the binary starts cold.
	if os.Getenv("GOCACHE") == "" {
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
		}
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	os.Setenv("XDG_STATE_HOME", filepath.Join(cache, "state")) // account histories
	// teatest's own SIGINT goroutine is the only allowed leftover.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/charmbracelet/x/exp/teatest.NewTestModel.func2"),
		goleak.Cleanup(func(int) { os.RemoveAll(cache) }))
}

// threeAccounts writes a config: Work healthy (an in-process server with
// mail), Down refusing, Hung silent. Cooldowns last a minute, so Down is
// still cooling down (not probing again) whenever a test looks.
func threeAccounts(t *testing.T) string {
	srv := samServer(t, "canary-secret-31337", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash})
	for i := range 3 {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: fmt.Sprintf("hello %d", i), Date: time.Now().Add(-time.Duration(i) * time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("UNIBOX_TEST_PW", "canary-secret-31337")
	cfg := fmt.Sprintf(`
[resilience]
backoff_base = "1m"
backoff_cap = "1m"

[[account]]
name = "Work"
host = "127.0.0.1"
port = %d
security = "none"
username = "sam"
password_env = "UNIBOX_TEST_PW"

[[account]]
name = "Down"
host = "127.0.0.1"
port = %d
security = "none"
username = "sam"
password_env = "UNIBOX_TEST_PW"

[[account]]
name = "Hung"
host = "127.0.0.1"
port = %d
security = "none"
username = "sam"
password_env = "UNIBOX_TEST_PW"
`, srv.Port(), imaptest.ClosedPort(t), imaptest.HungServer(t))
	return writeConfig(t, cfg)
}

func TestListJSONWithOneDownOneHung(t *testing.T) {
	path := threeAccounts(t)
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run([]string{"list", "--json", "--config", path, "--timeout", "3s"}, &stdout, &stderr)
	took := time.Since(start)
	if code != launch.ExitPartial {
		t.Fatalf("exit %d, want 3 (stderr %s)", code, stderr.String())
	}
	var out map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	var got cli.ListJSON
	json.Unmarshal(stdout.Bytes(), &got)
	want := map[string][2]string{"Work": {"connected", "none"}, "Down": {"cooling_down", "unavailable"}, "Hung": {"", "timeout"}}
	for _, a := range got.Accounts {
		w := want[a.Name]
		if (w[0] != "" && a.State != w[0]) || a.ErrorClass != w[1] {
			t.Errorf("%s: state %s class %s, want %v (error %q)", a.Name, a.State, a.ErrorClass, w, a.Error)
		}
	}
	if got.Accounts[0].Count != 3 || len(got.Messages) != 3 {
		t.Fatalf("Work's messages: %s", stdout.String())
	}
	m := got.Messages[0]
	if m.ID != "Work/INBOX/1/1" || m.From.Address != "ann@example.com" || m.Subject != "hello 0" || m.Date == "" || m.Seen {
		t.Fatalf("first message: %+v", m)
	}
	for _, key := range []string{`"id"`, `"account"`, `"folder"`, `"uid"`, `"uidvalidity"`, `"message_id"`, `"from"`, `"name"`, `"address"`, `"subject"`, `"date"`, `"seen"`, `"flagged"`, `"state"`, `"error"`, `"error_class"`, `"cooldown_seconds"`, `"count"`} {
		if !strings.Contains(stdout.String(), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	if strings.Contains(stdout.String()+stderr.String(), "canary-secret-31337") {
		t.Fatal("the password leaked into the output")
	}
	// Without the per-account deadline, Hung would hold the list for the
	// 15 s IMAP command timeout; the bound is generous for a loaded machine.
	t.Logf("list took %s with a 3 s per-account timeout", took)
	if took > 3*time.Second+6*time.Second {
		t.Fatalf("list took %s with a 3 s per-account timeout", took)
	}
}

func TestListExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"list", "--bogus"}, &out, &errb); code != launch.ExitUsage {
		t.Fatalf("bad flag: exit %d", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[[account]]\nname = \"x\"\nsecurity = \"ssl\"\n"), 0o600)
	errb.Reset()
	if code := run([]string{"list", "--config", bad}, &out, &errb); code != launch.ExitUsage || !strings.Contains(errb.String(), "bad.toml:3") {
		t.Fatalf("bad config: exit %d, %s", code, errb.String())
	}
	path := threeAccounts(t)
	errb.Reset()
	if code := run([]string{"list", "--config", path, "--account", "Down", "--timeout", "1s"}, &out, &errb); code != launch.ExitNone {
		t.Fatalf("only a down account: exit %d", code)
	}
	if code := run([]string{"list", "--config", path, "--account", "Nope"}, &out, &errb); code != launch.ExitUsage {
		t.Fatalf("unknown account: exit %d", code)
	}
	out.Reset()
	if code := run([]string{"list", "--config", path, "--account", "Work"}, &out, &errb); code != launch.ExitOK || !strings.Contains(out.String(), "hello 2") {
		t.Fatalf("healthy account: exit %d\n%s", code, out.String())
	}
}

func TestStatusJSON(t *testing.T) {
	path := threeAccounts(t)
	var out, errb bytes.Buffer
	// Work spawns, provisions and probes within the deadline even on a
	// loaded machine; Hung times out at it.
	code := run([]string{"status", "--json", "--config", path, "--timeout", "3s"}, &out, &errb)
	if code != launch.ExitPartial {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct{ Accounts []cli.StatusJSON }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Accounts) != 3 {
		t.Fatalf("%v: %s", err, out.String())
	}
	if a := got.Accounts[0]; a.State != "connected" || a.LatencyMS <= 0 && a.ErrorClass != "none" {
		t.Fatalf("Work: %+v", a)
	}
	if got.Accounts[1].ErrorClass != "unavailable" || got.Accounts[2].ErrorClass != "timeout" {
		t.Fatalf("down/hung: %+v", got.Accounts)
	}
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func readAll(r io.Reader) (string, error) {
	b, err := io.ReadAll(r)
	return string(b), err
}
