package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeConfig writes src with exactly mode (the umask would otherwise
// decide what the permission check sees).
func writeConfig(t *testing.T, src string, mode fs.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadPermissionWarning(t *testing.T) {
	secretEnv := "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\nenv = { EMAIL_PASSWORD = \"hunter2\" }\n"
	secretCmd := "[[account]]\nname = \"a\"\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"echo hunter2\"\n"
	clean := "[[account]]\nname = \"a\"\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"pass show a\"\n"
	tests := []struct {
		name string
		src  string
		mode fs.FileMode
		warn string // "" for no warning
	}{
		{"secret env, 0644", secretEnv, 0o644, "(mode 0644) and holds secret-looking values (account[0].env.EMAIL_PASSWORD); run: chmod 600 "},
		{"secret env, 0640", secretEnv, 0o640, "(mode 0640)"},
		{"secret env, 0604", secretEnv, 0o604, "(mode 0604)"},
		{"secret env, 0600", secretEnv, 0o600, ""},
		{"literal password_cmd, 0644", secretCmd, 0o644, "(account[0].password_cmd)"},
		{"literal password_cmd, 0600", secretCmd, 0o600, ""},
		{"no secrets, 0644", clean, 0o644, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.src, tt.mode)
			c, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			if tt.warn == "" {
				if len(c.Warnings) != 0 {
					t.Errorf("unexpected warnings %q", c.Warnings)
				}
				return
			}
			if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], p+": the file is readable by other users") ||
				!strings.Contains(c.Warnings[0], tt.warn) {
				t.Errorf("warnings = %q, want one containing %q", c.Warnings, tt.warn)
			}
			if strings.Contains(c.Warnings[0], "hunter2") {
				t.Error("the warning shows the secret")
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.toml")
	_, err := Load(missing)
	var e *Error
	if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &e) || e.File != missing {
		t.Fatalf("missing file: %v", err)
	}
	if want := missing + ": no such file; copy config.example.toml there and edit it"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}

	if _, err := Load(dir); err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}

	big := writeConfig(t, "# "+strings.Repeat("x", maxFileSize)+"\n", 0o600)
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("big file: %v", err)
	}

	bad := writeConfig(t, "[[account]]\nname = \"a\"\nsecurity = \"ssl\"\n", 0o600)
	_, err = Load(bad)
	if err == nil || !strings.HasPrefix(err.Error(), bad+`:1: account[0].host: missing`) ||
		!strings.Contains(err.Error(), "\n"+bad+`:3: account[0].security: "ssl" is not one of tls, starttls, none`) {
		t.Errorf("bad file: %v", err)
	}
	if errors.Is(err, ErrNotFound) {
		t.Error("a bad file matched ErrNotFound")
	}
}

func TestLoadDefaultPath(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	want := filepath.Join(xdg, "unibox", "config.toml")
	if got := DefaultPath(); got != want {
		t.Fatalf("DefaultPath() = %q, want %q", got, want)
	}
	if _, err := Load(""); !errors.Is(err, ErrNotFound) || !strings.HasPrefix(err.Error(), want+":") {
		t.Fatalf("Load(\"\") = %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(want), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(want, []byte("[[account]]\n"+imapOK), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load("")
	if err != nil || c.Path != want {
		t.Fatalf("Load(\"\") = %+v, %v", c, err)
	}

	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"", "relative/dir"} { // the XDG spec ignores relative values
		t.Setenv("XDG_CONFIG_HOME", v)
		if got, want := DefaultPath(), filepath.Join(home, ".config", "unibox", "config.toml"); got != want {
			t.Errorf("XDG_CONFIG_HOME=%q: DefaultPath() = %q, want %q", v, got, want)
		}
	}
}

// TestExampleConfig keeps config.example.toml loadable and in step with
// the code: it must parse, show two imap accounts, and mention every key.
func TestExampleConfig(t *testing.T) {
	const path = "../../config.example.toml"
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Accounts) != 2 || c.Accounts[0].PasswordCmd == "" || c.Accounts[1].PasswordEnv == "" {
		t.Errorf("accounts = %+v", c.Accounts)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings = %q", c.Warnings)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	keys := append(append([]string{"name", "kind"}, imapOnly...), mcpOnly...)
	keys = append(keys, "password_cmd", "password_env", "tool", "args",
		"connect_timeout", "connect_attempts", "call_timeout", "backoff_base", "backoff_cap", "backoff_jitter",
		"stable_after", "probe_interval", "probe_timeout", "probe_misses", "terminate_after", "command_timeout",
		"refresh_interval", "mark_read_on_open", "after_action", "abort_unmodified", "thread_by_subject", "page_size", "date_format", "ambiguous_width", "open_cmd", "download_dir", "tls_ca_file", "oauth2_token_url", "oauth2_client_id", "oauth2_client_secret_cmd", "oauth2_scopes", "refresh_token_cmd", "refresh_token_store_cmd", "provider",
		"[[account.provision]]", "[account.tools.", "[resilience]", "[ui]", "[keys]", "[agent]", "max_drafts_per_hour",
		"signature_file", "signature_cmd", "signatures = ", "signature_above_quote")
	for _, k := range keys {
		if !strings.Contains(text, k) {
			t.Errorf("config.example.toml does not mention %s", k)
		}
	}
	actions := []string{"up", "down", "top", "bottom", "open", "back", "quit", "next_account", "prev_account",
		"all_accounts", "refresh", "refresh_all", "details", "help", "toggle_read", "toggle_flag", "archive",
		"trash", "move", "select", "clear_selection", "undo", "filter", "search"}
	for _, a := range actions {
		if !strings.Contains(text, "#   "+a+" ") {
			t.Errorf("config.example.toml does not list the action %s", a)
		}
	}
}

// TestExampleMCPAccount uncomments the example's mcp account and parses it,
// so the commented-out part cannot rot either.
func TestExampleMCPAccount(t *testing.T) {
	src, err := os.ReadFile("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	in := false
	for line := range strings.Lines(string(src)) {
		if strings.HasPrefix(line, "# [[account]]") {
			in = true
		}
		if in && !strings.HasPrefix(line, "#") {
			break
		}
		if in {
			line = strings.TrimPrefix(strings.TrimPrefix(line, "#"), " ")
			if !strings.HasPrefix(line, "# ") { // keep the commented defaults commented
				b.WriteString(line)
			}
		}
	}
	c, err := Parse("example-mcp", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	a := c.Accounts[0]
	if a.Kind != KindMCP || a.SecretEnv != "EMAIL_PASS" || len(a.Command) == 0 || len(a.Tools) == 0 || len(a.Provision) == 0 || len(a.Env) == 0 {
		t.Errorf("mcp account = %+v", a)
	}
}
