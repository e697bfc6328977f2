package config

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Keys that belong to one kind of account only; on the other kind they
// are errors, not silently ignored settings.
var (
	imapOnly = []string{"provider", "host", "port", "security", "username", "archive_folder", "trash_folder", "tls_skip_verify", "allow_plaintext", "tls_ca_file", "auth", "token_cmd", "sasl",
		"oauth2_token_url", "oauth2_client_id", "oauth2_client_secret_cmd", "oauth2_scopes", "refresh_token_cmd", "refresh_token_store_cmd",
		"smtp_host", "smtp_port", "smtp_security", "smtp_username", "save_sent", "sent_folder", "drafts_folder"}
	mcpOnly = []string{"command", "env", "cwd", "profile", "secret_env", "tools", "provision"}
)

var (
	envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
	// secretName marks env entries whose value is probably a credential.
	secretName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)pass|secret|token|key`) })
	// literalSecret marks password_cmds that print a literal instead of
	// fetching a secret: "echo hunter2", "printf '%s' hunter2", here-strings.
	literalSecret = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^|[;&|(]|\$\()\s*(echo|printf)\s+(-\w+\s+)*['"]?[^$\s'"]|<<`)
	})
)

// account decodes one [[account]] table. It returns the key paths of
// secret-looking values for Load's file-permission warning.
func account(t *table) (Account, []string) {
	a := Account{Line: t.loc.line(t.path), Kind: KindIMAP}
	var secrets []string
	if s, ok := t.str("name"); !ok && !t.has("name") {
		t.errorf("name", "missing: every account needs a unique name")
	} else if ok {
		switch {
		case strings.TrimSpace(s) == "":
			t.errorf("name", "must not be empty")
		case hasControl(s):
			t.errorf("name", "must not contain control characters")
		case strings.TrimSpace(s) != s:
			t.errorf("name", "%q starts or ends with spaces", s)
		default:
			a.Name = s
		}
	}
	if s, ok := t.str("kind"); ok {
		a.Kind = s
	}
	if s, ok := t.str("password_cmd"); ok {
		if strings.TrimSpace(s) == "" {
			t.errorf("password_cmd", "must not be empty")
		}
		a.PasswordCmd = s
		if literalSecret().MatchString(s) {
			secrets = append(secrets, t.at("password_cmd"))
		}
	}
	if s, ok := t.str("password_env"); ok {
		if !envName().MatchString(s) {
			t.errorf("password_env", "%q is not an environment variable name", s)
		}
		a.PasswordEnv = s
	}
	if a.PasswordCmd != "" && a.PasswordEnv != "" {
		t.errorf("password_env", "set only one of password_cmd and password_env")
	}
	identity(t, &a)
	a.SnoozeFolder = snoozeFolder(t)
	screener(t, &a)
	switch a.Kind {
	case KindIMAP:
		imapAccount(t, &a)
		foreign(t, mcpOnly, KindMCP, a.Kind)
	case KindMCP:
		secrets = append(secrets, mcpAccount(t, &a)...)
		foreign(t, imapOnly, KindIMAP, a.Kind)
	default:
		t.errorf("kind", "%q is not one of imap, mcp", a.Kind)
		for _, k := range append(imapOnly, mcpOnly...) {
			t.get(k) // checked once the kind is fixed; not "unknown" meanwhile
		}
	}
	signatures(t, &a) // after the kind's keys: from may be the username
	t.finish()
	return a, secrets
}

// foreign reports keys of the other kind of account.
func foreign(t *table, keys []string, want, kind string) {
	for _, k := range keys {
		if _, ok := t.get(k); ok {
			t.errorf(k, "only for kind = %q accounts; this one has kind = %q", want, kind)
		}
	}
}

func imapAccount(t *table, a *Account) {
	p := preset(t)
	a.Security = SecurityTLS
	if p != nil {
		a.Security, a.Host = p.Security, p.Host
	}
	if s, ok := t.str("security"); ok {
		switch s {
		case SecurityTLS, SecuritySTARTTLS, SecurityNone:
			a.Security = s
		default:
			t.errorf("security", "%q is not one of tls, starttls, none", s)
		}
	}
	if s, ok := t.str("host"); !ok && !t.has("host") && !t.has("provider") {
		t.errorf("host", "missing: the IMAP server's host name, like \"imap.example.com\"")
	} else if ok {
		if msg := badHost(s); msg != "" {
			t.errorf("host", "%s", msg)
		}
		a.Host = s
	}
	a.Port = 993
	if p != nil {
		a.Port = p.Port
	}
	if a.Security != SecurityTLS {
		a.Port = 143
	}
	if n, ok := t.integer("port"); ok {
		if n < 1 || n > 65535 {
			t.errorf("port", "%d is not a port number (1-65535)", n)
		}
		a.Port = n
	}
	if s, ok := t.str("username"); !ok && !t.has("username") {
		t.errorf("username", "missing: the IMAP login name")
	} else if ok {
		if strings.TrimSpace(s) == "" {
			t.errorf("username", "must not be empty")
		}
		a.Username = s
	}
	authKeys(t, a, p)
	a.ArchiveFolder = folder(t, "archive_folder")
	a.TrashFolder = folder(t, "trash_folder")
	if b, ok := t.boolean("tls_skip_verify"); ok && b {
		a.TLSSkipVerify = true
		t.is.warn(t.line("tls_skip_verify"), t.at("tls_skip_verify"),
			"the server's certificate is not checked: anyone on the network path can read your mail and password; use this only for testing")
	}
	tlsCAFile(t, a)
	if b, ok := t.boolean("allow_plaintext"); ok && b {
		a.AllowPlaintext = true
		t.is.warn(t.line("allow_plaintext"), t.at("allow_plaintext"),
			"security = \"none\" is allowed to a remote host: the password crosses the network unencrypted")
	}
	sending(t, a, p)
	defaultFrom(a)
}

// folder reads an optional folder name; empty means "find it by
// special-use", which the provider does.
func folder(t *table, key string) string {
	s, _ := t.str(key)
	if hasControl(s) {
		t.errorf(key, "must not contain control characters")
	}
	return s
}

// badHost explains why s is not a host name, or returns "".
func badHost(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "must not be empty"
	case strings.Contains(s, "://"):
		return fmt.Sprintf("%q is a URL; write only the host name, like \"imap.example.com\"", s)
	case strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return fmt.Sprintf("%q contains spaces or control characters", s)
	case strings.Count(s, ":") == 1:
		return fmt.Sprintf("%q includes a port; write the port in port = ...", s)
	}
	return ""
}
