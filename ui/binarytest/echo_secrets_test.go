package binarytest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/command"
	"unibox/ui/facetest"
)

// Secrets a careless server echoes back, one account per form.
const (
	echoPW     = `pa"ss\word-Echo-4417`                      // LOGIN sends it IMAP-quoted
	echoCmdPW  = `cmd"pass\word-Echo-5528`                   // the same, from password_cmd
	echoXOAuth = "ya29.echo-Tok3n_xoauth2-6639"              // in XOAUTH2's base64 initial response
	echoBearer = "ya29.echo-Tok3n_bearer-7740"               // in OAUTHBEARER's
	echoCut    = "ya29.echo-Tok3n_cut-short-8851-abcdefghij" // in a line echoed cut short
	echoRT     = "rt-echo-refresh-9962"                      // echoed by a token endpoint
	echoCS     = "cs-echo-client-secret-1073"                // likewise
	echoMCP    = `mcp"pass\word-Echo-2284`                   // a kind = "mcp" account's, its server careless too
)

var echoSecrets = []string{echoPW, echoCmdPW, echoXOAuth, echoBearer, echoCut, echoRT, echoCS, echoMCP}

// echoConfig: an account per form, against an IMAP server that repeats
// every line it is sent in its NO, one that repeats it cut short, and a
// token endpoint that puts the request body in its error code.
func echoConfig(t *testing.T) (path string, echo *imaptest.Echo) {
	echo = imaptest.NewEcho(t, 0)
	// "T1 AUTHENTICATE XOAUTH2 " and the base64 of "user=sam\x01auth=Bearer "
	// are 54 characters; the token's base64 is 56 more: cut in the middle.
	cut := imaptest.NewEcho(t, 54+28)
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := readAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":"bad grant %s","error_description":"you sent %s"}`, body, body)
	}))
	t.Cleanup(endpoint.Close)
	t.Setenv("UNIBOX_ECHO_PW", echoPW)
	t.Setenv("UNIBOX_ECHO_MCP", echoMCP)
	exe, _ := os.Executable()
	oauth := func(name, sasl, tok string, port int) string {
		return facetest.IMAP(name, port, fmt.Sprintf("auth = \"oauth2\"\nsasl = %q\ntoken_cmd = %q", sasl, "printf %s "+tok))
	}
	cfg := facetest.Resilience("1m") +
		facetest.IMAP("Quoted", echo.Port(), facetest.Env("UNIBOX_ECHO_PW")) +
		facetest.IMAP("CmdQuoted", echo.Port(), fmt.Sprintf("password_cmd = %q", "printf '%s' '"+echoCmdPW+"'")) +
		facetest.IMAP("Refresh", echo.Port(), fmt.Sprintf(`auth = "oauth2"
oauth2_token_url = %q
oauth2_client_id = "unibox-echo"
oauth2_client_secret_cmd = "printf %%s %s"
refresh_token_cmd = "printf %%s %s"`, endpoint.URL+"/token", echoCS, echoRT)) + fmt.Sprintf(`
[[account]]
name = "MCP"
kind = "mcp"
profile = "mcp-mail-server"
command = [%q, "fake-mcp"]
password_env = "UNIBOX_ECHO_MCP"
secret_env = "EMAIL_PASS"
`, exe) +
		oauth("XOAuth", "xoauth2", echoXOAuth, echo.Port()) + oauth("Bearer", "oauthbearer", echoBearer, echo.Port()) +
		oauth("Cut", "xoauth2", echoCut, cut.Port())
	return facetest.Write(t, cfg), echo
}

// TestEchoedSecretsScrubbed: a server that echoes what it was sent into
// its error text gets every secret back in the form it went out in (IMAP
// quoted, inside a SASL initial response's base64, cut short, in a token
// request's URL-encoded body). No face, log or file shows any of them in
// any encoding: error texts, the details' history and the stderr tails,
// each <account>.log, `status --json`, `status --history` and the agent
// face's account_status.
func TestEchoedSecretsScrubbed(t *testing.T) {
	path, echo := echoConfig(t)
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	stateDir := os.Getenv("XDG_STATE_HOME")
	set, err := accounts.Open(cfg, accounts.Options{History: accounts.Have(filepath.Join(stateDir, "unibox"))})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for _, a := range set.Accounts {
		_, err := a.List(context.Background(), accounts.ListOptions{})
		if err == nil || a.Kind() == config.KindIMAP && accounts.ClassOf(err) != accounts.ClassAuth {
			t.Fatalf("%s: %s: %v", a.Name(), accounts.ClassOf(err), err)
		}
		// The echo reached the error text: the check below checks something.
		if a.Name() != "Refresh" && a.Name() != "MCP" && !strings.Contains(err.Error(), "you sent: ") {
			t.Fatalf("%s: the server's echo is not in the error: %v", a.Name(), err)
		}
		noEcho(t, a.Name()+" error text", err.Error())
		noEcho(t, a.Name()+" last error", a.Health().LastError)
		noEcho(t, a.Name()+" stderr tail", a.Stderr())
		noEcho(t, a.Name()+" details history", fmt.Sprint(a.History(100)))
	}
	// Each secret went out on the wire in the form the test is about.
	wire := strings.Join(echo.Lines(), "\n")
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, sent := range []string{`"pa\"ss\\word-Echo-4417"`, `"cmd\"pass\\word-Echo-5528"`,
		b64("user=sam\x01auth=Bearer " + echoXOAuth + "\x01\x01"), b64("n,a=sam,\x01auth=Bearer " + echoBearer + "\x01\x01")} {
		if !strings.Contains(wire, sent) {
			t.Errorf("the server was not sent %q; it saw:\n%s", sent, wire)
		}
	}

	var stdout, stderr bytes.Buffer
	command.Main([]string{"status", "--json", "--config", path, "--timeout", "10s"}, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "you sent: ") {
		t.Fatalf("status --json shows no echo:\n%s", stdout.String())
	}
	noEcho(t, "status --json", stdout.String()+stderr.String())

	exe, _ := os.Executable()
	cmd := exec.Command(exe, "mcp", "--config", path, "--timeout", "10s")
	cmd.Env = []string{"UNIBOX_ECHO_PW=" + echoPW, "UNIBOX_ECHO_MCP=" + echoMCP, "PATH=" + os.Getenv("PATH"), "GORACE=atexit_sleep_ms=0",
		"XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + stateDir}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, tool := range []string{"list_messages", "account_status"} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		out := accounts.ResultText(res) + fmt.Sprint(res.StructuredContent)
		if tool == "account_status" && !strings.Contains(out, "you sent: ") {
			t.Fatalf("account_status shows no echo: %s", out)
		}
		noEcho(t, "unibox mcp "+tool, out)
	}

	// The history files, and the local store with its WAL.
	logs := 0
	for _, dir := range []string{stateDir, os.Getenv("XDG_CACHE_HOME")} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				logs += strings.Count(string(b), "you sent: ")
				noEcho(t, "the file "+filepath.Base(p), string(b))
			}
			return nil
		})
	}
	if logs == 0 {
		t.Error("no history file holds an echo: the check above checked nothing")
	}

	// An older version scrubbed only the exact password or token: its
	// lines in the files still hold the other forms and secrets. Reading
	// scrubs them.
	old := map[string]string{
		"Quoted":    `LOGIN failed: you sent: T1 LOGIN "sam" "pa\"ss\\word-Echo-4417"`,
		"CmdQuoted": `LOGIN failed: you sent: T1 LOGIN "sam" "cmd\"pass\\word-Echo-5528"`,
		"Refresh":   "the token endpoint refused the refresh (bad grant client_id=unibox-echo&client_secret=" + echoCS + "&refresh_token=" + echoRT + ")",
		"MCP":       `Failed to connect: {"password":"mcp\"pass\\word-Echo-2284"}`,
		"XOAuth":    "you sent: T1 AUTHENTICATE XOAUTH2 " + b64("user=sam\x01auth=Bearer "+echoXOAuth+"\x01\x01"),
	}
	for name, text := range old {
		f, err := os.OpenFile(filepath.Join(stateDir, "unibox", name+".log"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, `{"time":"2026-01-01T00:00:00Z","account":%q,"kind":"state","state":"auth_failed","class":"auth","text":%q,"pid":1}`+"\n", name, "older version: "+text)
		f.Close()
	}
	stdout.Reset()
	stderr.Reset()
	command.Main([]string{"status", "--history", "--json", "--config", path}, &stdout, &stderr)
	if n := strings.Count(stdout.String(), "older version: "); n != len(old) {
		t.Fatalf("status --history shows %d of the older lines, want %d:\n%s\n%s", n, len(old), stdout.String(), stderr.String())
	}
	noEcho(t, "status --history", stdout.String()+stderr.String())
}

// noEcho fails the test if text shows a secret: whole or 12 bytes of it,
// plainly or in base64 (any run, any offset, either alphabet), or whole in
// the IMAP quoted, URL-escaped or JSON-escaped form. The encoders here
// are the standard library's, not the scrubber's.
func noEcho(t *testing.T, where, text string) {
	t.Helper()
	for _, s := range echoSecrets {
		q, _ := json.Marshal(s)
		for _, f := range []string{strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s), url.QueryEscape(s), url.PathEscape(s), string(q[1 : len(q)-1])} {
			if strings.Contains(text, f) {
				t.Errorf("%s holds %q", where, f)
			}
		}
		if w := window(text, s); w != "" {
			t.Errorf("%s holds %q of the secret %q", where, w, s)
		}
		for _, run := range strings.FieldsFunc(text, func(r rune) bool { return !strings.ContainsRune(b64chars, r) }) {
			for off := range 4 {
				r := run[min(off, len(run)):]
				r = r[:len(r)/4*4]
				for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
					if b, err := enc.DecodeString(r); err == nil {
						if w := window(string(b), s); w != "" {
							t.Errorf("%s holds %q of the secret %q in base64", where, w, s)
						}
					}
				}
			}
		}
	}
}

const b64chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_"

// window is the first 12 bytes of s found in text, "" if none.
func window(text, s string) string {
	for i := 0; i+12 <= len(s); i++ {
		if strings.Contains(text, s[i:i+12]) {
			return s[i : i+12]
		}
	}
	return ""
}
