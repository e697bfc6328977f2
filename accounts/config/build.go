package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"unibox/model/notifyargs"
)

// sample is the date date_format is tried on: no field of it equals the
// reference time's (not even the weekday or AM/PM), so a layout without
// any element formats to itself.
var sample = time.Date(2001, 11, 13, 9, 14, 15, 0, time.UTC)

// Defaults is a Config with no accounts and every default applied: what
// a file that sets nothing means, and what the demo starts from.
func Defaults() *Config {
	return &Config{
		UI: UI{
			RefreshInterval: Duration{DefaultRefreshInterval},
			MarkReadOnOpen:  true,
			AfterAction:     "list",
			PageSize:        DefaultPageSize,
			AmbiguousWidth:  "auto",
		},
		Store:    Store{CacheBodies: Bodies{Keep: BodiesNewer, Age: DefaultBodiesAge}, CacheBodiesMaxMB: DefaultCacheBodiesMaxMB, BodyFetchKBps: DefaultBodyFetchKBps},
		Compose:  Compose{SendDelay: Duration{DefaultSendDelay}, AbortUnmodified: true},
		Agent:    Agent{MaxDraftsPerHour: DefaultMaxDraftsPerHour, MaxRuleProposalsPerHour: DefaultMaxRuleProposalsPerHour},
		Keys:     map[string][]string{},
		keyLines: map[string]int{},
	}
}

// build turns the decoded tree into a Config, applying defaults and
// recording every problem in root's issues.
func build(root *table) *Config {
	cfg := Defaults()
	accounts, ok := root.tables("account")
	if ok && len(accounts) == 0 || !root.has("account") {
		root.errorf("account", "no accounts: add at least one [[account]] table (see config.example.toml)")
	}
	defer hideSecretEnv(cfg)
	byName := map[string]int{} // folded name → index
	for i, t := range accounts {
		a, secrets := account(t)
		cfg.Accounts = append(cfg.Accounts, a)
		cfg.secrets = append(cfg.secrets, secrets...)
		if a.Name == "" {
			continue
		}
		key := strings.ToLower(a.Name)
		if j, dup := byName[key]; dup {
			t.errorf("name", "%q is already the name of account[%d] (line %d); names must be unique, ignoring case",
				a.Name, j, cfg.Accounts[j].Line)
			continue
		}
		byName[key] = i
	}
	if t, ok := root.sub("resilience"); ok {
		cfg.Resilience = resilience(t)
	}
	if t, ok := root.sub("ui"); ok {
		cfg.UI = ui(t, cfg.UI)
	}
	if t, ok := root.sub("store"); ok {
		cfg.Store = storeTable(t, cfg.Store)
	}
	if t, ok := root.sub("compose"); ok {
		cfg.Compose = composeTable(t, cfg.Compose)
	}
	if t, ok := root.sub("agent"); ok {
		cfg.Agent = agentTable(t, cfg.Agent)
	}
	if t, ok := root.sub("calendar"); ok {
		if list, ok := t.argv("add_cmd", `["khal", "import", "--batch"] (the event comes on stdin)`); ok {
			cfg.Calendar.AddCmd = list
		}
		t.finish()
	}
	if t, ok := root.sub("keys"); ok {
		keys(t, cfg)
	}
	if t, ok := root.sub("rules"); ok {
		rulesTable(t, cfg)
	}
	if ts, ok := root.tables("rule"); ok {
		cfg.Rules = ruleTables(ts, root.is.file, cfg.Accounts, nil, time.Now())
	}
	root.finish()
	return cfg
}

// ui decodes [ui] over the defaults in u.
func ui(t *table, u UI) UI {
	if d, ok := t.duration("refresh_interval"); ok {
		if d < 0 {
			t.errorf("refresh_interval", "must not be negative (\"0s\" turns automatic refresh off)")
		} else {
			u.RefreshInterval = Duration{d}
		}
	}
	if b, ok := t.boolean("mark_read_on_open"); ok {
		u.MarkReadOnOpen = b
	}
	if s, ok := t.str("after_action"); ok {
		switch s {
		case "list", "next":
			u.AfterAction = s
		default:
			t.errorf("after_action", "%q is not one of list, next", s)
		}
	}
	if b, ok := t.boolean("thread_by_subject"); ok {
		u.ThreadBySubject = b
	}
	if n, ok := t.integer("page_size"); ok {
		if n < 1 || n > MaxPageSize {
			t.errorf("page_size", "must be between 1 and %d (got %d)", MaxPageSize, n)
		} else {
			u.PageSize = n
		}
	}
	if s, ok := t.str("date_format"); ok {
		switch {
		case hasControl(s):
			t.errorf("date_format", "must not contain control characters")
		case s != "" && sample.Format(s) == s:
			// Nothing in s is a layout element, so every date would print
			// as the same fixed text: the usual "YYYY-MM-DD" mistake.
			t.errorf("date_format", "%q has no Go layout elements; write the reference date, e.g. \"2006-01-02\" or \"Jan 2 2006\"", s)
		default:
			u.DateFormat = s
		}
	}
	if list, ok := t.argv("notify_cmd", `["notify-send", "unibox"]`); ok {
		if err := notifyargs.Check(list); err != nil {
			t.errorf("notify_cmd", "%v", err)
		} else {
			u.NotifyCmd = list
		}
	}
	if list, ok := t.argv("open_cmd", `["xdg-open"] (the file's path is appended)`); ok {
		u.OpenCmd = list
	}
	if s, ok := t.str("download_dir"); ok {
		u.DownloadDir = downloadDir(t, s)
	}
	if s, ok := t.str("ambiguous_width"); ok {
		switch s {
		case "auto", "narrow", "wide":
			u.AmbiguousWidth = s
		default:
			t.errorf("ambiguous_width", "%q is not one of auto, narrow, wide", s)
		}
	}
	t.finish()
	return u
}

// downloadDir checks [ui] download_dir: an absolute folder, or one
// under the home folder written "~/...".
func downloadDir(t *table, s string) string {
	if hasControl(s) {
		t.errorf("download_dir", "contains control characters")
		return ""
	}
	if rest, ok := strings.CutPrefix(s, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			t.errorf("download_dir", "%q starts with ~/ but the home folder is unknown: %v", s, err)
			return ""
		}
		s = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(s) {
		t.errorf("download_dir", "%q must be an absolute path, or start with ~/", s)
		return ""
	}
	return filepath.Clean(s)
}

// keys decodes [keys]: action → keys. Action names belong to the UI, which
// checks them later using KeyLine for its error positions.
func keys(t *table, cfg *Config) {
	for action := range t.m {
		list, ok := t.strList(action)
		if !ok {
			continue
		}
		switch {
		case len(list) == 0:
			t.errorf(action, "empty: list at least one key, like [\"e\"]")
			continue
		case slices.ContainsFunc(list, func(s string) bool { return strings.TrimSpace(s) == "" }):
			t.errorf(action, "contains an empty key name")
			continue
		case slices.ContainsFunc(list, hasControl):
			t.errorf(action, "contains control characters; write key names like \"ctrl+a\"")
			continue
		}
		cfg.Keys[action] = list
		cfg.keyLines[action] = t.line(action)
	}
	t.finish()
}

// hasControl reports control characters, which must never reach the
// terminal from a config value (a name or folder is shown on screen).
func hasControl(s string) bool { return strings.IndexFunc(s, unicode.IsControl) >= 0 }

// hideSecretEnv tells every account which environment variables hold some
// account's password (password_env), so a password_cmd, which otherwise
// runs with the user's environment (it may need a GPG agent), never sees
// another account's secret.
func hideSecretEnv(cfg *Config) {
	var names []string
	for _, a := range cfg.Accounts {
		if a.PasswordEnv != "" {
			names = append(names, a.PasswordEnv)
		}
	}
	for i := range cfg.Accounts {
		cfg.Accounts[i].hideEnv = names
	}
}
