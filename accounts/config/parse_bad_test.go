package config

import (
	"errors"
	"strings"
	"testing"
)

// imapOK is a valid account body to build bad configs around.
const imapOK = `name = "work"
host = "imap.example.com"
username = "me"
password_env = "PW"
`

// TestParseBad checks that every error names the exact file:line: key.
// want holds one prefix per reported error, in the order reported.
func TestParseBad(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"no accounts", "[ui]\npage_size = 10\n",
			[]string{"t.toml:1: account: no accounts"}},
		{"empty file", "",
			[]string{"t.toml:1: account: no accounts"}},
		{"syntax", "[[account]]\nname = \n",
			[]string{"t.toml:2: expected value"}},
		{"single brackets", "[account]\n" + imapOK,
			[]string{"t.toml:1: account: must be an array of tables: write [[account]]"}},
		{"bad security", "[[account]]\n" + imapOK + "security = \"ssl\"\n",
			[]string{`t.toml:6: account[0].security: "ssl" is not one of tls, starttls, none`}},
		{"quoted key", "[[account]]\n" + imapOK + "\"security\" = \"ssl\"  # comment\n",
			[]string{`t.toml:6: account[0].security: "ssl" is not one of tls, starttls, none`}},
		{"port type", "[[account]]\n" + imapOK + "port = \"993\"\n",
			[]string{"t.toml:6: account[0].port: must be an integer, not a string"}},
		{"port range", "[[account]]\n" + imapOK + "port = 70000\n",
			[]string{"t.toml:6: account[0].port: 70000 is not a port number (1-65535)"}},
		{"port zero", "[[account]]\n" + imapOK + "port = 0\n",
			[]string{"t.toml:6: account[0].port: 0 is not a port number"}},
		{"kind", "[[account]]\n" + imapOK + "kind = \"pop3\"\n",
			[]string{`t.toml:6: account[0].kind: "pop3" is not one of imap, mcp`}},
		{"second account missing host", "[[account]]\n" + imapOK + "\n[[account]]\nname = \"b\"\nusername = \"u\"\npassword_cmd = \"pass b\"\n",
			[]string{"t.toml:7: account[1].host: missing"}},
		{"missing name", "[[account]]\nhost = \"h\"\nusername = \"u\"\npassword_env = \"P\"\n",
			[]string{"t.toml:1: account[0].name: missing"}},
		{"empty name", "[[account]]\n" + strings.Replace(imapOK, `"work"`, `" "`, 1),
			[]string{"t.toml:2: account[0].name: must not be empty"}},
		{"padded name", "[[account]]\n" + strings.Replace(imapOK, `"work"`, `"work "`, 1),
			[]string{`t.toml:2: account[0].name: "work " starts or ends with spaces`}},
		{"control in name", "[[account]]\n" + strings.Replace(imapOK, `"work"`, `"w\u001b[2Jork"`, 1),
			[]string{"t.toml:2: account[0].name: must not contain control characters"}},
		{"duplicate name", "[[account]]\n" + imapOK + "[[account]]\n" + strings.Replace(imapOK, `"work"`, `"Work"`, 1),
			[]string{`t.toml:7: account[1].name: "Work" is already the name of account[0] (line 1)`}},
		{"both passwords", "[[account]]\n" + imapOK + "password_cmd = \"pass x\"\n",
			[]string{"t.toml:5: account[0].password_env: set only one of password_cmd and password_env"}},
		{"no password", "# hi\n\n[[account]]\nname = \"a\"\nhost = \"h\"\nusername = \"u\"\n",
			[]string{"t.toml:3: account[0].password_cmd: missing: set password_cmd"}},
		{"bad password_env", "[[account]]\n" + strings.Replace(imapOK, `"PW"`, `"MY-PW"`, 1),
			[]string{`t.toml:5: account[0].password_env: "MY-PW" is not an environment variable name`}},
		{"host url", "[[account]]\n" + strings.Replace(imapOK, `"imap.example.com"`, `"imaps://x.org"`, 1),
			[]string{`t.toml:3: account[0].host: "imaps://x.org" is a URL`}},
		{"host with port", "[[account]]\n" + strings.Replace(imapOK, `"imap.example.com"`, `"x.org:993"`, 1),
			[]string{`t.toml:3: account[0].host: "x.org:993" includes a port`}},
		{"mcp key on imap", "[[account]]\n" + imapOK + "command = [\"x\"]\n",
			[]string{`t.toml:6: account[0].command: only for kind = "mcp" accounts; this one has kind = "imap"`}},
		{"imap key on mcp", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\nhost = \"h\"\n",
			[]string{`t.toml:5: account[0].host: only for kind = "imap" accounts; this one has kind = "mcp"`}},
		{"mcp no command", "[[account]]\nname = \"m\"\nkind = \"mcp\"\n",
			[]string{"t.toml:1: account[0].command: missing"}},
		{"mcp command string", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = \"srv --x\"\n",
			[]string{"t.toml:4: account[0].command: must be an array of strings"}},
		{"mcp command empty", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = []\n",
			[]string{"t.toml:4: account[0].command: must start with the program"}},
		{"mcp password without secret_env", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\npassword_env = \"P\"\n",
			[]string{"t.toml:1: account[0].secret_env: missing"}},
		{"mcp secret_env without password", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\nsecret_env = \"EMAIL_PASS\"\n",
			[]string{"t.toml:5: account[0].secret_env: set password_cmd or password_env too"}},
		{"mcp secret_env in env", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\npassword_env = \"P\"\nsecret_env = \"X\"\nenv = { X = \"1\" }\n",
			[]string{"t.toml:6: account[0].secret_env: X is also set in env"}},
		{"mcp env value type", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n[account.env]\nA = \"1\"\nB = 2\n",
			[]string{"t.toml:7: account[0].env.B: must be a string, not an integer"}},
		{"mcp env name", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n[account.env]\n\"A B\" = \"1\"\n",
			[]string{`t.toml:6: account[0].env."A B": "A B" is not an environment variable name`}},
		{"mcp tool dotted", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\ntools.list.tool = 5\n",
			[]string{"t.toml:5: account[0].tools.list.tool: must be a string, not an integer"}},
		{"mcp tool missing", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n\n[account.tools.list]\nargs = { a = 1 }\n",
			[]string{"t.toml:6: account[0].tools.list.tool: missing"}},
		{"mcp tool unknown key", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n[account.tools.list]\ntool = \"l\"\narg = {}\n",
			[]string{`t.toml:7: account[0].tools.list.arg: unknown key; did you mean "args"?`}},
		{"mcp provision second", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n[[account.provision]]\ntool = \"a\"\n[[account.provision]]\nargs = {}\n",
			[]string{"t.toml:7: account[0].provision[1].tool: missing"}},
		{"nested index", "[[account]]\n" + imapOK + "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\n[[account.provision]]\ntool = \"a\"\nargs = 3\n",
			[]string{"t.toml:12: account[1].provision[0].args: must be a table"}},
		{"typo", "[[account]]\n" + imapOK + "hots = \"x\"\n",
			[]string{`t.toml:6: account[0].hots: unknown key; did you mean "host"?`}},
		{"wrong case", "[[account]]\n" + imapOK + "Security = \"tls\"\n",
			[]string{`t.toml:6: account[0].Security: unknown key; did you mean "security"? (keys are case-sensitive)`}},
		{"password in account", "[[account]]\n" + imapOK + "password = \"hunter2\"\n",
			[]string{"t.toml:6: account[0].password: secrets never live in the config file; use password_cmd"}},
		{"password at top", "password = \"hunter2\"\n[[account]]\n" + imapOK,
			[]string{"t.toml:1: password: secrets never live in the config file"}},
		{"unknown section", "[[account]]\n" + imapOK + "\n[colors]\nbg = 1\n",
			[]string{"t.toml:7: colors: unknown key"}},
		{"multi-line string skipped", "[[account]]\nname = \"a\"\npassword_cmd = \"\"\"\nsecurity = \"x\"\n\"\"\"\nhost = \"h\"\nusername = \"u\"\nsecurity = \"ssl\"\n",
			[]string{`t.toml:8: account[0].security: "ssl"`}},
		{"resilience", "[[account]]\n" + imapOK + `
[resilience]
connect_timeout = 20
call_timeout = "-1s"
backoff_base = "1 minute"
backoff_jitter = 1.5
probe_misses = 0
connect_attempts = 0
stable_after = "0s"
command_timeout = "0s"
`, []string{
			`t.toml:8: resilience.connect_timeout: must be a duration string like "20s"`,
			"t.toml:9: resilience.call_timeout: must be positive",
			`t.toml:10: resilience.backoff_base: duration "1 minute": want a number with a unit`,
			"t.toml:11: resilience.backoff_jitter: must be between 0 and 1 (got 1.5)",
			"t.toml:12: resilience.probe_misses: must be at least 1 (got 0)",
			"t.toml:13: resilience.connect_attempts: must be at least 1 (got 0)",
			"t.toml:14: resilience.stable_after: must be positive",
			"t.toml:15: resilience.command_timeout: must be positive",
		}},
		{"backoff cap below base", "[[account]]\n" + imapOK + "[resilience]\nbackoff_base = \"10s\"\nbackoff_cap = \"5s\"\n",
			[]string{"t.toml:8: resilience.backoff_cap: 5s is shorter than backoff_base (10s)"}},
		{"ui", "[[account]]\n" + imapOK + "[ui]\npage_size = 501\nrefresh_interval = \"-1s\"\ndate_format = \"YYYY-MM-DD\"\nmark_read_on_open = \"yes\"\ntheme = 1\nambiguous_width = \"double\"\nafter_action = \"stay\"\n", []string{
			"t.toml:7: ui.page_size: must be between 1 and 500 (got 501)",
			"t.toml:8: ui.refresh_interval: must not be negative",
			`t.toml:9: ui.date_format: "YYYY-MM-DD" has no Go layout elements`,
			"t.toml:10: ui.mark_read_on_open: must be true or false, not a string",
			"t.toml:11: ui.theme: unknown key",
			`t.toml:12: ui.ambiguous_width: "double" is not one of auto, narrow, wide`,
			`t.toml:13: ui.after_action: "stay" is not one of list, next`,
		}},
		{"notify_cmd", "[[account]]\n" + imapOK + "[ui]\nnotify_cmd = []\n", []string{"t.toml:7: ui.notify_cmd: needs a program"}},
		{"notify_cmd unknown placeholder", "[[account]]\n" + imapOK + "[ui]\nnotify_cmd = [\"notify-send\", \"{from}\", \"{body}\"]\n", []string{"t.toml:7: ui.notify_cmd: element 3: unknown placeholder {body} (known: {account}, {from}, {subject}, {count})"}},
		{"notify_cmd placeholder in the program", "[[account]]\n" + imapOK + "[ui]\nnotify_cmd = [\"{subject}\"]\n", []string{"t.toml:7: ui.notify_cmd: element 1 is the program, run as written: no placeholder ({subject}) there"}},
		{"open_cmd and download_dir", "[[account]]\n" + imapOK + "[ui]\nopen_cmd = []\ndownload_dir = \"Downloads\"\n", []string{
			"t.toml:7: ui.open_cmd: needs a program",
			`t.toml:8: ui.download_dir: "Downloads" must be an absolute path, or start with ~/`,
		}},
		{"calendar add_cmd", "[[account]]\n" + imapOK + "[calendar]\nadd_cmd = \"khal import\"\nadd = 1\n", []string{
			"t.toml:7: calendar.add_cmd: must be an array of strings",
			"t.toml:8: calendar.add: unknown key",
		}},
		{"calendar add_cmd empty", "[[account]]\n" + imapOK + "[calendar]\nadd_cmd = []\n", []string{"t.toml:7: calendar.add_cmd: needs a program"}},
		{"notify_cmd as a string", "[[account]]\n" + imapOK + "[ui]\nnotify_cmd = \"notify-send x\"\n", []string{"t.toml:7: ui.notify_cmd: must be an array of strings"}},
		{"store", "[[account]]\n" + imapOK + "[store]\ncache_bodies = \"yes\"\ncache_bodies_max_mb = 0\nbodies = 1\nbody_fetch_kbps = 0\n", []string{
			`t.toml:7: store.cache_bodies: "yes" is not true, false or an age like "90d" (days) or "12w" (weeks)`,
			"t.toml:8: store.cache_bodies_max_mb: must be at least 1 (got 0)",
			"t.toml:9: store.bodies: unknown key",
			"t.toml:10: store.body_fetch_kbps: must be at least 1 (got 0)",
		}},
		{"cache_bodies unit", "[[account]]\n" + imapOK + "[store]\ncache_bodies = \"90x\"\n",
			[]string{`t.toml:7: store.cache_bodies: "90x" is not true, false or an age like "90d"`}},
		{"cache_bodies negative", "[[account]]\n" + imapOK + "[store]\ncache_bodies = -1\n",
			[]string{`t.toml:7: store.cache_bodies: must be true, false or an age like "90d" (days) or "12w" (weeks), not an integer`}},
		{"cache_bodies word", "[[account]]\n" + imapOK + "[store]\ncache_bodies = \"abc\"\n",
			[]string{`t.toml:7: store.cache_bodies: "abc" is not true`}},
		{"cache_bodies zero age", "[[account]]\n" + imapOK + "[store]\ncache_bodies = \"0d\"\n",
			[]string{`t.toml:7: store.cache_bodies: "0d": the age must be from 1 day to 100 years`}},
		{"cache_bodies signed age", "[[account]]\n" + imapOK + "[store]\ncache_bodies = \"-90d\"\n",
			[]string{`t.toml:7: store.cache_bodies: "-90d" is not true`}},
		{"body_fetch_kbps type", "[[account]]\n" + imapOK + "\n[store]\nbody_fetch_kbps = \"1MB\"\n",
			[]string{"t.toml:8: store.body_fetch_kbps: must be an integer, not a string"}},
		{"keys", "[[account]]\n" + imapOK + "[keys]\narchive = []\ntrash = [\"d\", \"\"]\nquit = \"q\"\nup = [\"k\", 1]\n", []string{
			"t.toml:7: keys.archive: empty",
			"t.toml:8: keys.trash: contains an empty key name",
			"t.toml:9: keys.quit: must be an array of strings",
			"t.toml:10: keys.up: element 1 must be a string, not an integer",
		}},
		{"section type", "ui = 3\n[[account]]\n" + imapOK,
			[]string{"t.toml:1: ui: must be a table ([ui]), not an integer"}},
		{"errors sorted across accounts", "[[account]]\n" + imapOK + "bogus = 1\n[[account]]\nname = \"b\"\n", []string{
			"t.toml:6: account[0].bogus: unknown key",
			"t.toml:7: account[1].host: missing",
			"t.toml:7: account[1].username: missing",
			"t.toml:7: account[1].password_cmd: missing",
		}},
		{"plain http token url", "[[account]]\nname = \"o\"\nhost = \"h\"\nusername = \"u\"\nauth = \"oauth2\"\noauth2_token_url = \"http://login.example.com/token\"\noauth2_client_id = \"c\"\nrefresh_token_cmd = \"r\"\n",
			[]string{`t.toml:6: account[0].oauth2_token_url: "http://login.example.com/token" is plain http to another host`}},
		{"crlf", "[[account]]\r\n" + strings.ReplaceAll(imapOK, "\n", "\r\n") + "security = \"ssl\"\r\n",
			[]string{`t.toml:6: account[0].security: "ssl"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("t.toml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; got %+v", cfg)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error: %v", err, err)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("error %d:\n got %s\nwant %s...", i, got[i], w)
				}
			}
		})
	}
}
