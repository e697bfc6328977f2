package binarytest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/command"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

const (
	canaryEnv = "canary-env-7731"
	canaryCmd = "canary-cmd-8842"
	canaryMCP = "canary-mcp-9953"
	canaryTok = "canary-tok-1064" // an OAuth2 access token the server takes
	canaryBad = "canary-bad-2175" // one it refuses
)

var canaries = []string{canaryEnv, canaryCmd, canaryMCP, canaryTok, canaryBad}

// secretsConfig: one account per secret source, all at once.
func secretsConfig(t *testing.T) string {
	srv, err := memimap.Start(memimap.Options{Tokens: func(user, token string) bool { return token == canaryTok }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, u := range [][2]string{{"envuser", canaryEnv}, {"cmduser", canaryCmd}, {"tokuser", "unused-pw"}} {
		if err := srv.AddUser(u[0], u[1], map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive}); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("UNIBOX_CANARY_PW", canaryEnv)
	t.Setenv("UNIBOX_CANARY_MCP", canaryMCP)
	exe, _ := os.Executable()
	token := func(tok string) string { return fmt.Sprintf("auth = \"oauth2\"\ntoken_cmd = \"printf %%s %s\"", tok) }
	cfg := facetest.IMAPAs("EnvAcct", "envuser", srv.Port(), facetest.Env("UNIBOX_CANARY_PW")) +
		facetest.IMAPAs("CmdAcct", "cmduser", srv.Port(), fmt.Sprintf("password_cmd = \"printf %%s %s\"", canaryCmd)) +
		facetest.IMAPAs("TokAcct", "tokuser", srv.Port(), token(canaryTok)) +
		facetest.IMAPAs("BadTokAcct", "tokuser", srv.Port(), token(canaryBad)) + fmt.Sprintf(`
[[account]]
name = "MCPAcct"
kind = "mcp"
profile = "mcp-mail-server"
command = [%q, "fake-mcp"]
password_env = "UNIBOX_CANARY_MCP"
secret_env = "EMAIL_PASS"
`, exe)
	// Its own local store and account histories, read below.
	path := facetest.Write(t, cfg)
	return path
}

func noCanary(t *testing.T, where, s string) {
	t.Helper()
	for _, c := range canaries {
		if strings.Contains(s, c) {
			t.Errorf("%s holds the canary %s", where, c)
		}
	}
}

// TestSecretsStayPut: secrets fed through password_env, password_cmd, a
// kind = "mcp" account's environment and token_cmd (an access token the
// server takes, and one it refuses) at once. None appears in any
// child's argv, in a serve-imap child's environment, in another account's
// child environment, in the TUI, `list --json`, `unibox mcp`, error texts
// or the providers' stderr tails. (unibox writes no log file.)
func TestSecretsStayPut(t *testing.T) {
	path := secretsConfig(t)
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	set, err := accounts.Open(cfg, accounts.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for _, a := range set.Accounts {
		_, err := a.List(context.Background(), accounts.ListOptions{})
		if err != nil {
			noCanary(t, a.Name()+" error text", err.Error())
		}
		// The token accounts really log in by token, or are refused.
		if a.Name() == "TokAcct" && err != nil || a.Name() == "BadTokAcct" && accounts.ClassOf(err) != accounts.ClassAuth {
			t.Fatalf("%s: %v", a.Name(), err)
		}
	}
	// Every child is running now: look at each from the outside.
	kids := imaptest.ChildPIDs()
	if len(kids) < 3 {
		t.Fatalf("%d children, want 3", len(kids))
	}
	for _, pid := range kids {
		argv, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		noCanary(t, fmt.Sprintf("argv of %d", pid), string(argv))
		if bytes.Contains(argv, []byte("fake-mcp")) {
			// The mcp child: its own secret, nothing else's.
			if !bytes.Contains(environ, []byte("EMAIL_PASS="+canaryMCP)) {
				t.Errorf("the mcp child lacks its own secret")
			}
			for _, c := range []string{canaryEnv, canaryCmd} {
				if bytes.Contains(environ, []byte(c)) {
					t.Errorf("the mcp child holds another account's secret %s", c)
				}
			}
			continue
		}
		noCanary(t, fmt.Sprintf("environ of serve-imap %d", pid), string(environ))
	}
	for _, a := range set.Accounts {
		noCanary(t, a.Name()+" stderr tail", a.Stderr())
		noCanary(t, a.Name()+" status", a.Status().LastError)
	}

	// The TUI: list and every account's details view.
	var uiAccts []tui.Account
	for _, a := range set.Accounts {
		uiAccts = append(uiAccts, a)
	}
	m, err := tui.New(tui.Options{Accounts: uiAccts, NoTick: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	var seen bytes.Buffer
	for _, a := range uiAccts {
		tm.Send(keyMsg("tab"))
		tm.Send(keyMsg("i"))
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			seen.Write(b)
			return bytes.Contains(seen.Bytes(), []byte("Account "+a.Name()))
		}, teatest.WithDuration(5*time.Second))
		tm.Send(keyMsg("esc"))
	}
	tm.Quit()
	out, _ := readAll(tm.FinalOutput(t, teatest.WithFinalTimeout(5*time.Second)))
	noCanary(t, "the TUI's output", seen.String()+out)

	// list --json and the hub.
	var stdout, stderr bytes.Buffer
	command.Main([]string{"list", "--json", "--config", path, "--timeout", "3s"}, &stdout, &stderr)
	noCanary(t, "list --json", stdout.String()+stderr.String())
	// The local store that listing filled: the file, its WAL, anything
	// beside them.
	stored := 0
	for _, dir := range []string{os.Getenv("XDG_CACHE_HOME"), os.Getenv("XDG_STATE_HOME")} {
		stored = 0
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				stored += len(b)
				noCanary(t, "the file "+filepath.Base(p)+" unibox wrote", string(b))
			}
			return nil
		})
		if stored == 0 {
			t.Errorf("list --json wrote nothing under %s: the check above checked nothing", dir)
		}
	}
	stdout.Reset()
	command.Main([]string{"status", "--json", "--config", path, "--timeout", "3s"}, &stdout, &stderr)
	noCanary(t, "status --json", stdout.String()+stderr.String())
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "mcp", "--config", path, "--timeout", "3s")
	cmd.Env = []string{"UNIBOX_CANARY_PW=" + canaryEnv, "UNIBOX_CANARY_MCP=" + canaryMCP, "PATH=" + os.Getenv("PATH"), "GORACE=atexit_sleep_ms=0",
		"XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME")}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tool := range []string{"inbox_summary", "list_messages", "account_status"} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		noCanary(t, "unibox mcp "+tool, accounts.ResultText(res)+fmt.Sprint(res.StructuredContent))
	}
}
