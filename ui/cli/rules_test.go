package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

func rulesCmd(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Rules(args, &stdout, &stderr)
	return stdout.String(), code, stderr.String()
}

// `unibox rules check` reads the config and rules.toml beside it: each
// rule in a line (or JSON), exit 0; a broken file names its file, line
// and key, exit 1; a bad command line exits 2. Nothing dials.
func TestRulesCheck(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.toml")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(cfgPath, "[[account]]\nname = \"Work\"\nhost = \"127.0.0.1\"\nport = 9\nusername = \"u\"\npassword_env = \"PW\"\n")
	rulesPath := filepath.Join(dir, "rules.toml")
	write(rulesPath, `[[rule]]
name = "newsletters"
accounts = ["work"]
match = { from = "*@news.example.com", list_id = "*" }
action = "move"
folder = "Lists"
notify = false
`)
	out, code, errs := rulesCmd(t, "check", "--config", cfgPath)
	if code != launch.ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `newsletters (` + rulesPath + `:1): in Work, from "*@news.example.com" and list_id "*" -> move to "Lists"; no notify`
	if !strings.Contains(out, want) || !strings.Contains(out, "1 rules, valid") {
		t.Errorf("stdout %q, want %q", out, want)
	}

	out, code, _ = rulesCmd(t, "check", "--json", "--config", cfgPath)
	var got cli.RulesJSON
	if code != launch.ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Rules) != 1 {
		t.Fatalf("exit %d, %q", code, out)
	}
	r := got.Rules[0]
	if r.Name != "newsletters" || r.Action != "move" || r.Folder != "Lists" || r.Notify || r.Match.ListID != "*" || r.Line != 1 || r.Accounts[0] != "Work" {
		t.Errorf("JSON rule %+v", r)
	}

	write(rulesPath, "[[rule]]\nname = \"x\"\nmatch = { subject = \"re:(\" }\naction = \"archive\"\nfolder = \"A\"\n")
	_, code, errs = rulesCmd(t, "check", "--config", cfgPath)
	for _, want := range []string{
		rulesPath + ":3: rule[0].match.subject: not a regular expression",
		rulesPath + `:5: rule[0].folder: is for action = "move" only`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q, want %q", errs, want)
		}
	}
	if code != launch.ExitNone {
		t.Errorf("exit %d for a broken rules file, want %d", code, launch.ExitNone)
	}

	for _, args := range [][]string{nil, {"frobnicate"}, {"check", "extra"}, {"check", "--nope"},
		{"undo"}, {"undo", "abc"}, {"undo", "0"}, {"undo", "-3"}, {"undo", "1", "2"}, {"log", "--limit", "0"}, {"test", "extra"}} {
		if _, code, _ := rulesCmd(t, args...); code != launch.ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, launch.ExitUsage)
		}
	}
}

// Four `unibox sync` processes race on the same new mail: each rule acts
// on each message once (every news letter archived exactly once, one
// done action each in the log), and the first sync, before any new mail,
// leaves the old letter alone. `rules undo` puts one back.
func TestRulesAcrossProcessesActOnce(t *testing.T) {
	acrossProcesses(t)
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive})
	add := func(from, subject string) {
		raw := imaptest.Mail{From: from, To: "sam@example.com", Subject: subject, Date: time.Now(), MessageID: strings.ReplaceAll(subject, " ", "-") + "@x", Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("letters@news.example", "old letter")
	path := facetest.OneAccount(t, srv)
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "rules.toml"), []byte(
		"[[rule]]\nname = \"news\"\nmatch = { from = \"*@news.example\" }\naction = \"archive\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	syncCmd := func() *exec.Cmd {
		cmd := exec.Command(exe, "sync", "--config", path)
		cmd.Env = []string{"UNIBOX_TEST_PW=pw", "GORACE=atexit_sleep_ms=0", "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"),
			"XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME"), "XDG_DATA_HOME=" + os.Getenv("XDG_DATA_HOME")}
		return cmd
	}
	if out, err := syncCmd().CombinedOutput(); err != nil {
		t.Fatalf("first sync: %v\n%s", err, out)
	}
	const letters = 20
	for i := range letters {
		add("letters@news.example", fmt.Sprintf("letter %d", i))
	}
	add("friend@home.example", "hello")
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 4 {
		wg.Go(func() {
			if out, err := syncCmd().CombinedOutput(); err != nil {
				errs <- fmt.Sprintf("%v: %s", err, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	archived := facetest.Folder(t, srv, "sam", "pw", "Archive")
	inbox := facetest.Folder(t, srv, "sam", "pw", "INBOX")
	if len(archived) != letters || len(inbox) != 2 {
		t.Fatalf("archive holds %d (want %d), INBOX %d (want the old letter and hello)", len(archived), letters, len(inbox))
	}
	out, code, errText := rulesCmd(t, "log", "--json")
	var log cli.RulesLogJSON
	if code != launch.ExitOK || json.Unmarshal([]byte(out), &log) != nil {
		t.Fatalf("rules log: exit %d, %q %q", code, out, errText)
	}
	seen := map[string]bool{}
	for _, a := range log.Actions {
		if a.State != "done" || a.Rule != "news" || seen[a.MessageID] {
			t.Errorf("log entry %+v (a message twice, or not done)", a)
		}
		seen[a.MessageID] = true
	}
	if len(seen) != letters {
		t.Errorf("%d actions logged, want %d", len(seen), letters)
	}
	// An action the log does not have is said, and nothing changes.
	missing := exec.Command(exe, "rules", "undo", "--config", path, "999999")
	missing.Env = syncCmd().Env
	if out, err := missing.CombinedOutput(); err == nil || !strings.Contains(string(out), "no action 999999 in the log") {
		t.Errorf("undo of an unknown action: %v\n%s", err, out)
	}
	undo := exec.Command(exe, "rules", "undo", "--config", path, fmt.Sprint(log.Actions[0].ID))
	undo.Env = syncCmd().Env
	if out, err := undo.CombinedOutput(); err != nil || !strings.Contains(string(out), "undone: rule news on ") {
		t.Fatalf("rules undo: %v\n%s", err, out)
	}
	if got := facetest.Folder(t, srv, "sam", "pw", "INBOX"); len(got) != 3 {
		t.Errorf("after undo INBOX holds %d, want 3", len(got))
	}
}

// `unibox rules test` answers from the store, offline and changing
// nothing: what each rule would do to INBOX, and which trash it refuses
// because Sam wrote to the sender (unless the rule names that address).
func TestRulesTestDryRun(t *testing.T) {
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent})
	add := func(folder, from, to, subject string, headers map[string]string) {
		raw := imaptest.Mail{From: from, To: to, Subject: subject, Date: time.Now(), Body: "x", Headers: headers}.Bytes()
		if _, err := srv.Append("sam", folder, raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("Sent", "Sam <sam@example.com>", "Mom <mother@family.example>", "sunday", nil)
	add("INBOX", "Mom <mother@family.example>", "sam@example.com", "dinner", nil)
	add("INBOX", "Aunt <aunt@family.example>", "sam@example.com", "hello", nil)
	for i := range 3 {
		add("INBOX", "Go <news@golang.example>", "sam@example.com", fmt.Sprint("weekly ", i), map[string]string{"List-Id": "Go news <news.golang.example>"})
	}
	path := facetest.OneAccount(t, srv)
	if _, code := facetest.SyncJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("sync: exit %d", code)
	}
	if _, code := facetest.SyncJSON(t, "--config", path, "--folder", "Sent"); code != launch.ExitOK {
		t.Fatalf("sync Sent: exit %d", code)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "rules.toml"), []byte(`
[[rule]]
name = "lists"
match = { list_id = "*.golang.example" }
action = "move"
folder = "Lists"

[[rule]]
name = "family"
match = { from = "*@family.example" }
action = "trash"

[[rule]]
name = "mom exactly"
match = { from = "mother@family.example" }
action = "trash"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Close() // offline from here
	out, code, errs := rulesCmd(t, "test", "--json", "--config", path)
	var got cli.RulesTestJSON
	if code != launch.ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Rules) != 3 {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	subjects := func(ms []cli.RuleTestMessage) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.Subject)
		}
		return strings.Join(s, ",")
	}
	for i, want := range []struct{ would, protected string }{
		{"weekly 2,weekly 1,weekly 0", ""},
		{"hello", "dinner"},
		{"dinner", ""}, // the family rule did not act on mom's mail: this one names her
	} {
		r := got.Rules[i]
		if subjects(r.Would) != want.would || subjects(r.Protected) != want.protected {
			t.Errorf("%s: would %q protected %q; want %q, %q", r.Name, subjects(r.Would), subjects(r.Protected), want.would, want.protected)
		}
	}
	if got.Read != 5 {
		t.Errorf("read %d messages, want 5", got.Read)
	}
	text, code, _ := rulesCmd(t, "test", "--config", path)
	for _, want := range []string{`lists (`, `would move to "Lists" 3 messages`, `protected, you wrote to the sender: Work`, `"dinner"`, "5 messages read in"} {
		if !strings.Contains(text, want) || code != launch.ExitOK {
			t.Errorf("text %q lacks %q (exit %d)", text, want, code)
		}
	}
}

// `unibox rules apply` acts on the stored mail on purpose (only what is
// older than --older-than), once: a second run finds it done; rules test
// and apply agree on what a rule takes.
func TestRulesApply(t *testing.T) {
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive})
	add := func(subject string, age time.Duration) {
		raw := imaptest.Mail{From: "letters@news.example", To: "sam@example.com", Subject: subject, Date: time.Now().Add(-age), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("old letter", 60*24*time.Hour)
	add("new letter", time.Hour)
	path := facetest.OneAccount(t, srv)
	if _, code := facetest.SyncJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("sync: exit %d", code)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "rules.toml"), []byte(
		"[[rule]]\nname = \"news\"\nmatch = { from = \"*@news.example\" }\naction = \"archive\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, code, errs := rulesCmd(t, "apply", "--older-than", "soon", "--config", path); code != launch.ExitUsage || !strings.Contains(errs, "not a span of time") {
		t.Errorf("a bad --older-than: exit %d, %q", code, errs)
	}
	out, code, errs := rulesCmd(t, "apply", "--json", "--older-than", "30d", "--config", path)
	var got cli.RulesApplyJSON
	if code != launch.ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Accounts) != 1 {
		t.Fatalf("apply: exit %d, %q %q", code, out, errs)
	}
	if a := got.Accounts[0]; a.Read != 1 || a.Acted != 1 || a.Failed != 0 {
		t.Errorf("apply --older-than 30d: %+v", a)
	}
	if arch := facetest.Folder(t, srv, "sam", "pw", "Archive"); len(arch) != 1 || !strings.Contains(string(arch[0].Raw), "Subject: old letter") {
		t.Errorf("archive holds %+v", arch)
	}
	out, code, _ = rulesCmd(t, "apply", "--config", path)
	if code != launch.ExitOK || !strings.Contains(out, "Work: 1 actions, 0 done before, 0 failed, 0 protected (you wrote to the sender), of 1 stored messages") {
		t.Errorf("apply everything: exit %d, %q", code, out)
	}
	if inbox := facetest.Folder(t, srv, "sam", "pw", "INBOX"); len(inbox) != 0 {
		t.Errorf("INBOX still holds %d", len(inbox))
	}
}

// A rule an account cannot carry out (a third-party MCP server without a
// move tool) is refused for that account at load, naming the rule: the
// dry run says so, and acts with it only where it can; the account's
// history says it once for each face that opens it.
func TestRuleRefusedWhereTheAccountCannot(t *testing.T) {
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Lists": ""})
	raw := imaptest.Mail{From: "letters@news.example", To: "sam@example.com", Subject: "letter", Date: time.Now(), Body: "x"}.Bytes()
	if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	path := facetest.OneAccount(t, srv)
	facetest.AddThirdParty(t, path)
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "rules.toml"), []byte(
		"[[rule]]\nname = \"lists\"\nmatch = { from = \"*@news.example\" }\naction = \"move\"\nfolder = \"Lists\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, code := facetest.SyncJSON(t, "--config", path, "--account", "Work"); code != launch.ExitOK {
		t.Fatalf("sync: exit %d", code)
	}
	out, code, errs := rulesCmd(t, "test", "--json", "--config", path)
	var got cli.RulesTestJSON
	if code != launch.ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Rules) != 1 {
		t.Fatalf("rules test: exit %d\n%s%s", code, out, errs)
	}
	if r := got.Rules[0]; len(r.Refused) != 1 || r.Refused[0] != "Third: mcp-mail-server has no tool to move messages" || len(r.Would) != 1 {
		t.Fatalf("lists: refused %q, would act on %d", r.Refused, len(r.Would))
	}
	out, _, _ = rulesCmd(t, "test", "--config", path)
	if !strings.Contains(out, "  refused in Third: mcp-mail-server has no tool to move messages") {
		t.Fatalf("rules test:\n%s", out)
	}
	var stdout, stderr bytes.Buffer
	cli.Status([]string{"--history", "--config", path}, &stdout, &stderr)
	// Once per face that opened the accounts: sync, two dry runs, status.
	if n := strings.Count(stdout.String(), "Third    rule     config  rule lists is refused in this account: mcp-mail-server has no tool to move messages"); n != 4 {
		t.Fatalf("the history says it %d times, not once for each of 4 faces:\n%s", n, stdout.String())
	}
}
