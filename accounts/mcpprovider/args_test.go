package mcpprovider

import (
	"context"
	"errors"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/conn"
)

func TestExpand(t *testing.T) {
	vals := map[string]any{"folder": "Work/2026", "limit": 25, "uid": 42, "id": "42", "seen": true, "action": "read", "query": "a b",
		"cc": []string{"a@example.com", "b@example.com"}}
	cases := []struct {
		name string
		args map[string]any
		want map[string]any
	}{
		{"typed values", map[string]any{"mailbox": "{folder}", "pageSize": "{limit}", "uid": "{uid}", "emailId": "{id}", "s": "{seen}"},
			map[string]any{"mailbox": "Work/2026", "pageSize": 25, "uid": 42, "emailId": "42", "s": true}},
		{"inside text", map[string]any{"q": "uid:{uid} in {folder}", "x": "{seen}!"},
			map[string]any{"q": "uid:42 in Work/2026", "x": "true!"}},
		{"literals kept", map[string]any{"page": int64(1), "f": 1.5, "b": false, "brace": "{unknown}", "text": "a {x} b"},
			map[string]any{"page": int64(1), "f": 1.5, "b": false, "brace": "{unknown}", "text": "a {x} b"}},
		{"no value for a known placeholder", map[string]any{"to": "{to}"}, map[string]any{"to": "{to}"}},
		{"addresses: a list alone, joined in text", map[string]any{"cc": "{cc}", "line": "Cc: {cc}"},
			map[string]any{"cc": []string{"a@example.com", "b@example.com"}, "line": "Cc: a@example.com, b@example.com"}},
		{"nested", map[string]any{"criteria": []any{"TEXT", "{query}", map[string]any{"in": "{folder}"}}},
			map[string]any{"criteria": []any{"TEXT", "a b", map[string]any{"in": "Work/2026"}}}},
		{"nil args give {}", nil, map[string]any{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := expand(c.args, vals)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
	orig := map[string]any{"n": map[string]any{"m": "{uid}"}}
	expand(orig, vals)
	if orig["n"].(map[string]any)["m"] != "{uid}" {
		t.Fatal("expand changed its input")
	}
}

func TestBuildValidation(t *testing.T) {
	ok := config.Account{Name: "w", Kind: "mcp", Command: []string{"server"}, Profile: "email-mcp"}
	cases := []struct {
		name string
		mod  func(*config.Account)
		want string // "" for success
	}{
		{"ok", func(*config.Account) {}, ""},
		{"no profile, own mapping", func(a *config.Account) {
			a.Profile = ""
			a.Tools = map[string]config.ToolCall{"list": {Tool: "ls", Args: map[string]any{"n": "{limit}"}}}
		}, ""},
		{"empty command", func(a *config.Account) { a.Command = nil }, "command: empty"},
		{"blank program", func(a *config.Account) { a.Command = []string{" "} }, "command: empty"},
		{"unknown profile", func(a *config.Account) { a.Profile = "gmail" }, `unknown profile "gmail" (known: email-mcp, mcp-mail-server)`},
		{"unknown operation", func(a *config.Account) {
			a.Tools = map[string]config.ToolCall{"delete": {Tool: "rm"}}
		}, "tools.delete: unknown operation (known: archive, folders, get, list, move, probe, search, send, set_flagged, set_seen, trash)"},
		{"mapping without tool", func(a *config.Account) { a.Tools = map[string]config.ToolCall{"get": {}} }, "tools.get: no tool named"},
		{"placeholder the op lacks", func(a *config.Account) {
			a.Tools = map[string]config.ToolCall{"list": {Tool: "ls", Args: map[string]any{"u": "{uid}", "x": "to {to}"}}}
		}, "tools.list: {to}, {uid}: no value in the list operation (it has: {folder}, {limit})"},
		{"provision without tool", func(a *config.Account) { a.Provision = []config.ToolCall{{Tool: "x"}, {}} }, "provision step 2: no tool named"},
		{"password but no variable", func(a *config.Account) { a.Profile, a.PasswordEnv = "", "PW" }, "secret_env: missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ac := ok
			c.mod(&ac)
			s, err := Build(ac, nil, Options{})
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Build: %v", err)
			case c.want == "" && (s.Provider == nil || s.Dial == nil || s.Classify == nil || s.ClassifyConnect == nil || s.Redact == nil):
				t.Fatalf("incomplete spec: %+v", s)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	if got := Profiles(); !slices.Equal(got, []string{"email-mcp", "mcp-mail-server"}) {
		t.Fatalf("Profiles() = %v", got)
	}
	s, _ := Build(ok, nil, Options{})
	if s.AfterConnect != nil || s.Probe == nil {
		t.Fatal("email-mcp: no provision list means no AfterConnect; its check_health is the probe")
	}
}

// The child's environment is built afresh per dial; a broken password
// source or a missing program is a configuration error.
func TestChildEnvironment(t *testing.T) {
	fetches := 0
	pw := func(context.Context) (string, error) {
		fetches++
		return "pw-" + strings.Repeat("x", fetches), nil
	}
	ac := config.Account{Name: "w", Command: []string{"sh", "-c", "true"}, Cwd: "/tmp", PasswordCmd: "unused",
		Env: map[string]string{"MCP_EMAIL_ACCOUNT_NAME": "work", "HOME": "/srv/mail-home"}, Profile: "email-mcp"}
	s, err := Build(ac, pw, Options{Path: "/usr/bin:/bin", Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"MCP_EMAIL_PASSWORD=pw-x", "MCP_EMAIL_PASSWORD=pw-xx"} {
		tr, err := s.Dial(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		cmd := tr.(*mcp.CommandTransport).Command
		wantEnv := []string{"HOME=/srv/mail-home", "MCP_EMAIL_ACCOUNT_NAME=work", want, "PATH=/usr/bin:/bin"}
		if !slices.Equal(cmd.Env, wantEnv) || cmd.Dir != "/tmp" || !slices.Equal(cmd.Args, []string{"sh", "-c", "true"}) ||
			!strings.HasPrefix(cmd.Path, "/usr/bin/") && !strings.HasPrefix(cmd.Path, "/bin/") {
			t.Fatalf("dial %d: %q %q %v %q", i+1, cmd.Path, cmd.Dir, cmd.Args, cmd.Env)
		}
	}
	if got := s.Redact("pw-x and pw-xx"); got != "*** and ***" {
		t.Fatalf("redact: %q", got)
	}

	broken, _ := Build(ac, func(context.Context) (string, error) { return "", errors.New("gpg: no key") }, Options{Path: "/bin"})
	_, err = broken.Dial(t.Context())
	mustClass(t, err, conn.ClassConfig)
	missing, _ := Build(config.Account{Name: "m", Command: []string{"no-such-mail-server"}}, nil, Options{Path: "/usr/bin:/bin"})
	_, err = missing.Dial(t.Context())
	var ee *exec.Error
	if !errors.As(err, &ee) || !errors.Is(err, exec.ErrNotFound) || !strings.Contains(err.Error(), "/usr/bin:/bin") {
		t.Fatalf("missing program: %v", err)
	}
}
