package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestParseGood checks defaults and decoded values of valid configs.
func TestParseGood(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, c *Config)
	}{
		{"defaults", "# comment\n[[account]]\n" + imapOK, func(t *testing.T, c *Config) {
			want := Account{Name: "work", Kind: KindIMAP, Host: "imap.example.com", Port: 993, Security: SecurityTLS,
				Username: "me", PasswordEnv: "PW", Auth: AuthPassword, SaveSent: SaveSentAuto, Line: 2, hideEnv: []string{"PW"}}
			if len(c.Accounts) != 1 || !reflect.DeepEqual(c.Accounts[0], want) {
				t.Errorf("account:\n got %+v\nwant %+v", c.Accounts, want)
			}
			wantUI := UI{RefreshInterval: Duration{60 * time.Second}, MarkReadOnOpen: true, AfterAction: "list", PageSize: 50, AmbiguousWidth: "auto"}
			if !reflect.DeepEqual(c.UI, wantUI) {
				t.Errorf("ui = %+v, want %+v", c.UI, wantUI)
			}
			if c.Resilience != (Resilience{}) || len(c.Keys) != 0 || len(c.Warnings) != 0 || c.Path != "t.toml" {
				t.Errorf("resilience %+v keys %v warnings %v path %q", c.Resilience, c.Keys, c.Warnings, c.Path)
			}
		}},
		{"starttls port", "[[account]]\n" + imapOK + "security = \"starttls\"\n", func(t *testing.T, c *Config) {
			if a := c.Accounts[0]; a.Port != 143 || a.Security != SecuritySTARTTLS {
				t.Errorf("port %d security %q", a.Port, a.Security)
			}
		}},
		{"none port", "[[account]]\n" + imapOK + "security = \"none\"\n", func(t *testing.T, c *Config) {
			if a := c.Accounts[0]; a.Port != 143 {
				t.Errorf("port %d", a.Port)
			}
		}},
		{"explicit port and folders", "[[account]]\n" + imapOK + "port = 1993\narchive_folder = \"Arch\"\ntrash_folder = \"Bin\"\n", func(t *testing.T, c *Config) {
			if a := c.Accounts[0]; a.Port != 1993 || a.ArchiveFolder != "Arch" || a.TrashFolder != "Bin" {
				t.Errorf("got %+v", a)
			}
		}},
		{"two accounts in order", "[[account]]\n" + imapOK + "\n[[account]]\nname = \"home\"\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"pass home\"\n", func(t *testing.T, c *Config) {
			if len(c.Accounts) != 2 || c.Accounts[1].Name != "home" || c.Accounts[1].Line != 7 || c.Accounts[1].PasswordCmd != "pass home" {
				t.Errorf("got %+v", c.Accounts)
			}
		}},
		{"inline account array", `account = [{ name = "a", host = "h", username = "u", password_env = "P" }]`, func(t *testing.T, c *Config) {
			if len(c.Accounts) != 1 || c.Accounts[0].Name != "a" || c.Accounts[0].Line != 1 {
				t.Errorf("got %+v", c.Accounts)
			}
		}},
		{"mcp", `[[account]]
name = "gmail"
kind = "mcp"
command = ["npx", "-y", "email-mcp"]
cwd = "/tmp"
profile = "email-mcp"
password_cmd = "pass show gmail"
secret_env = "EMAIL_PASS"
env = { EMAIL_USER = "me@gmail.com" }
tools.search.tool = "find"
[account.tools.list]
tool = "list_emails"
args = { mailbox = "INBOX", limit = 20, nested = { deep = [1, "x"] } }
[[account.provision]]
tool = "select_account"
args = { account = "me" }
[[account.provision]]
tool = "warm_up"
`, func(t *testing.T, c *Config) {
			a := c.Accounts[0]
			want := Account{Name: "gmail", Kind: KindMCP, Command: []string{"npx", "-y", "email-mcp"}, Cwd: "/tmp",
				Profile: "email-mcp", PasswordCmd: "pass show gmail", SecretEnv: "EMAIL_PASS",
				Env: map[string]string{"EMAIL_USER": "me@gmail.com"},
				Tools: map[string]ToolCall{
					"search": {Tool: "find"},
					"list": {Tool: "list_emails", Args: map[string]any{"mailbox": "INBOX", "limit": int64(20),
						"nested": map[string]any{"deep": []any{int64(1), "x"}}}},
				},
				Provision: []ToolCall{{Tool: "select_account", Args: map[string]any{"account": "me"}}, {Tool: "warm_up"}},
				Line:      1,
			}
			if !reflect.DeepEqual(a, want) {
				t.Errorf("account:\n got %#v\nwant %#v", a, want)
			}
		}},
		{"mcp without password", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n", func(t *testing.T, c *Config) {
			if a := c.Accounts[0]; a.Port != 0 || a.Security != "" || a.SecretEnv != "" {
				t.Errorf("imap defaults leaked into an mcp account: %+v", a)
			}
		}},
		{"resilience", "[[account]]\n" + imapOK + `[resilience]
connect_timeout = "5s"
connect_attempts = 3
call_timeout = "1m30s"
backoff_base = "500ms"
backoff_cap = "2m"
backoff_jitter = 0
stable_after = "1m"
probe_interval = "0s"
probe_timeout = "2s"
probe_misses = 4
terminate_after = "3s"
command_timeout = "25s"
`, func(t *testing.T, c *Config) {
			d := func(s string) Duration { v, _ := time.ParseDuration(s); return Duration{v} }
			want := Resilience{ConnectTimeout: d("5s"), ConnectAttempts: 3, CallTimeout: d("90s"), BackoffBase: d("500ms"),
				BackoffCap: d("2m"), BackoffJitter: -1, StableAfter: d("1m"), ProbeInterval: Duration{-1},
				ProbeTimeout: d("2s"), ProbeMisses: 4, TerminateAfter: d("3s"), IMAPCommandTimeout: d("25s")}
			if c.Resilience != want {
				t.Errorf("resilience:\n got %+v\nwant %+v", c.Resilience, want)
			}
		}},
		{"calendar add_cmd", "[[account]]\n" + imapOK + "[calendar]\nadd_cmd = [\"khal\", \"import\", \"--batch\"]\n", func(t *testing.T, c *Config) {
			if !reflect.DeepEqual(c.Calendar.AddCmd, []string{"khal", "import", "--batch"}) {
				t.Errorf("add_cmd %q", c.Calendar.AddCmd)
			}
		}},
		{"open_cmd and download_dir", "[[account]]\n" + imapOK + "[ui]\nopen_cmd = [\"mimeopen\", \"-n\"]\ndownload_dir = \"~/mail files\"\n", func(t *testing.T, c *Config) {
			home, _ := os.UserHomeDir()
			if !reflect.DeepEqual(c.UI.OpenCmd, []string{"mimeopen", "-n"}) || c.UI.DownloadDir != filepath.Join(home, "mail files") {
				t.Errorf("open_cmd %q, download_dir %q", c.UI.OpenCmd, c.UI.DownloadDir)
			}
		}},
		{"ui", "[[account]]\n" + imapOK + "[ui]\nrefresh_interval = \"0s\"\nmark_read_on_open = false\nthread_by_subject = true\npage_size = 500\ndate_format = \"Jan 2 2006\"\nambiguous_width = \"wide\"\nafter_action = \"next\"\nnotify_cmd = [\"notify-send\", \"-a\", \"unibox\", \"{account}: {from}\", \"{subject} ({count})\"]\n", func(t *testing.T, c *Config) {
			want := UI{RefreshInterval: Duration{0}, MarkReadOnOpen: false, AfterAction: "next", ThreadBySubject: true, PageSize: 500, DateFormat: "Jan 2 2006", AmbiguousWidth: "wide",
				NotifyCmd: []string{"notify-send", "-a", "unibox", "{account}: {from}", "{subject} ({count})"}}
			if !reflect.DeepEqual(c.UI, want) {
				t.Errorf("ui = %+v, want %+v", c.UI, want)
			}
		}},
		{"store", "[[account]]\n" + imapOK + "[store]\ncache_bodies = true\ncache_bodies_max_mb = 64\nbody_fetch_kbps = 256\n", func(t *testing.T, c *Config) {
			if want := (Store{CacheBodies: Bodies{Keep: BodiesAll}, CacheBodiesMaxMB: 64, BodyFetchKBps: 256}); c.Store != want {
				t.Errorf("store = %+v, want %+v", c.Store, want)
			}
		}},
		{"store defaults", "[[account]]\n" + imapOK, func(t *testing.T, c *Config) {
			want := Store{CacheBodies: Bodies{Keep: BodiesNewer, Age: 90 * 24 * time.Hour}, CacheBodiesMaxMB: 500, BodyFetchKBps: 1024}
			if c.Store != want {
				t.Errorf("store = %+v, want %+v", c.Store, want)
			}
			if got := c.Store.CacheBodies.String(); got != "90d" {
				t.Errorf("default cache_bodies reads %q, want 90d", got)
			}
		}},
		{"store headers only", "[[account]]\n" + imapOK + "[store]\ncache_bodies = false\n", func(t *testing.T, c *Config) {
			if b := c.Store.CacheBodies; b.Keep != BodiesNone || b.Stored() || b.String() != "false" {
				t.Errorf("cache_bodies = %+v (%s)", b, b)
			}
		}},
		{"store ages", "[[account]]\n" + imapOK + "[store]\ncache_bodies = \"12w\"\n", func(t *testing.T, c *Config) {
			b := c.Store.CacheBodies
			if b.Keep != BodiesNewer || b.Age != 84*24*time.Hour || b.String() != "12w" {
				t.Errorf("cache_bodies = %+v (%s)", b, b)
			}
			now := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
			if got := b.Since(now); !got.Equal(now.AddDate(0, 0, -84)) {
				t.Errorf("Since = %v", got)
			}
			if got := (Bodies{Keep: BodiesAll}).Since(now); !got.IsZero() {
				t.Errorf("all: Since = %v, want zero", got)
			}
		}},
		{"keys", "[[account]]\n" + imapOK + "\n[keys]\narchive = [\"e\", \"A\"]\n# comment\n\"prev_account\" = [\"shift+tab\"]\nnot_an_action = [\"x\"]\n", func(t *testing.T, c *Config) {
			want := map[string][]string{"archive": {"e", "A"}, "prev_account": {"shift+tab"}, "not_an_action": {"x"}}
			if !reflect.DeepEqual(c.Keys, want) {
				t.Errorf("keys = %v", c.Keys)
			}
			for action, line := range map[string]int{"archive": 8, "prev_account": 10, "not_an_action": 11, "missing": 0} {
				if got := c.KeyLine(action); got != line {
					t.Errorf("KeyLine(%q) = %d, want %d", action, got, line)
				}
			}
		}},
		{"insecure options warn", "[[account]]\n" + imapOK + "tls_skip_verify = true\nallow_plaintext = true\nsecurity = \"none\"\n", func(t *testing.T, c *Config) {
			a := c.Accounts[0]
			if !a.TLSSkipVerify || !a.AllowPlaintext {
				t.Errorf("flags not set: %+v", a)
			}
			want := []string{
				"t.toml:6: account[0].tls_skip_verify: the server's certificate is not checked",
				"t.toml:7: account[0].allow_plaintext: security = \"none\" is allowed",
			}
			if len(c.Warnings) != len(want) {
				t.Fatalf("warnings = %q", c.Warnings)
			}
			for i, w := range want {
				if !strings.HasPrefix(c.Warnings[i], w) {
					t.Errorf("warning %d = %q, want prefix %q", i, c.Warnings[i], w)
				}
			}
		}},
		{"false flags do not warn", "[[account]]\n" + imapOK + "tls_skip_verify = false\nallow_plaintext = false\n", func(t *testing.T, c *Config) {
			if len(c.Warnings) != 0 {
				t.Errorf("warnings = %q", c.Warnings)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("t.toml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

// TestSecretLooking checks which values make a world-readable file worth
// a warning.
func TestSecretLooking(t *testing.T) {
	tests := []struct {
		name, body string
		secret     bool
	}{
		{"pass show", `password_cmd = "pass show mail/work"`, false},
		{"echo literal", `password_cmd = "echo hunter2"`, true},
		{"printf literal", `password_cmd = "printf '%s' hunter2"`, true},
		{"echo variable", `password_cmd = "echo $MAILPW"`, false},
		{"after a pipe", `password_cmd = "true && echo -n hunter2"`, true},
		{"here-string", `password_cmd = "cat <<< hunter2"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("t.toml", []byte("[[account]]\nname = \"a\"\nhost = \"h\"\nusername = \"u\"\n"+tt.body+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if got := len(c.secrets) > 0; got != tt.secret {
				t.Errorf("secret-looking = %v, want %v", got, tt.secret)
			}
		})
	}
	mcp := "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n[account.env]\nEMAIL_USER = \"me\"\nAPI_Token = \"t0k\"\nEMPTY_PASS = \"\"\n"
	c, err := Parse("t.toml", []byte(mcp))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"account[0].env.API_Token"}; !reflect.DeepEqual(c.secrets, want) {
		t.Errorf("secrets = %q, want %q", c.secrets, want)
	}
}
