package config

import (
	"errors"
	"net/mail"
	"strings"
)

// How the copy of a sent message reaches Sent (save_sent).
const (
	// SaveSentAuto appends the copy unless the server already holds the
	// Message-ID in Sent: some servers save their own (Gmail, Outlook,
	// and submission servers with a Sent hook), and a second copy is the
	// most reported bug of mail clients (himalaya #660).
	SaveSentAuto   = "auto"
	SaveSentAlways = "always"
	SaveSentNever  = "never"
)

// SMTP is where an IMAP account sends from. Authentication is the
// account's own: the same password_cmd or password_env, or the same
// OAuth2 token (XOAUTH2 or OAUTHBEARER), so one secret serves both.
type SMTP struct {
	Host     string
	Port     int    // defaulted: 465 for tls, 587 for starttls, 25 for none
	Security string // tls, starttls or none; none only to loopback or with allow_plaintext
	Username string // defaulted to the account's username
}

// smtpKeys are the keys that only mean something with smtp_host.
var smtpKeys = []string{"smtp_port", "smtp_security", "smtp_username"}

// identity reads from and aliases, the account's own addresses: the From
// of what it sends, and who reply-all leaves out. Both kinds have them.
func identity(t *table, a *Account) {
	if s, ok := t.str("from"); ok {
		addr, err := mail.ParseAddress(s)
		switch {
		case hasControl(s):
			t.errorf("from", "must not contain control characters")
		case err != nil:
			t.errorf("from", "%q is not an address, like \"Alice <alice@example.org>\" (%v)", s, err)
		default:
			a.From = addr
		}
	}
	if list, ok := t.strList("aliases"); ok {
		for _, s := range list {
			addr, err := mail.ParseAddress(s)
			if err != nil || hasControl(s) {
				t.errorf("aliases", "%q is not an address, like \"alice@example.org\"", s)
				continue
			}
			a.Aliases = append(a.Aliases, addr.Address)
		}
	}
}

// defaultFrom is the username when it is an address: most providers log
// in with it.
func defaultFrom(a *Account) {
	if a.From != nil || !strings.Contains(a.Username, "@") {
		return
	}
	if addr, err := mail.ParseAddress(a.Username); err == nil && addr.Name == "" {
		a.From = addr
	}
}

// sending reads an IMAP account's SMTP keys over its preset, and where the
// copies of sent mail and postponed drafts go. An account without
// smtp_host (and no preset) still reads mail; sending from it says so.
func sending(t *table, a *Account, p *Preset) {
	a.SaveSent = SaveSentAuto
	if s, ok := t.str("save_sent"); ok {
		switch s {
		case SaveSentAuto, SaveSentAlways, SaveSentNever:
			a.SaveSent = s
		default:
			t.errorf("save_sent", "%q is not one of auto, always, never", s)
		}
	}
	a.SentFolder = folder(t, "sent_folder")
	a.DraftsFolder = folder(t, "drafts_folder")
	s := &SMTP{Security: SecurityTLS}
	if p != nil && p.SMTPHost != "" {
		s.Host, s.Security, s.Port = p.SMTPHost, p.SMTPSecurity, p.SMTPPort
		a.ServerSavesSent = p.ServerSavesSent
	}
	if h, ok := t.str("smtp_host"); ok {
		if msg := badHost(h); msg != "" {
			t.errorf("smtp_host", "%s", strings.ReplaceAll(msg, "imap.example.com", "smtp.example.com"))
		}
		s.Host = h
	}
	if s.Host == "" {
		for _, k := range smtpKeys {
			if t.has(k) {
				t.errorf(k, "needs smtp_host: the SMTP server's host name, like \"smtp.example.com\"")
			}
		}
		return
	}
	if v, ok := t.str("smtp_security"); ok {
		switch v {
		case SecurityTLS, SecuritySTARTTLS, SecurityNone:
			if v != s.Security {
				s.Port = 0 // the preset's port was for its own security
			}
			s.Security = v
		default:
			t.errorf("smtp_security", "%q is not one of tls, starttls, none", v)
		}
	}
	if s.Port == 0 {
		s.Port = defaultSMTPPort(s.Security)
	}
	if n, ok := t.integer("smtp_port"); ok {
		if n < 1 || n > 65535 {
			t.errorf("smtp_port", "%d is not a port number (1-65535)", n)
		}
		s.Port = n
	}
	if s.Security == SecurityNone && !loopback(s.Host) && !a.AllowPlaintext {
		key := "smtp_security"
		if !t.has(key) {
			key = "smtp_host"
		}
		t.errorf(key, "smtp_security = \"none\" to %q would send the password and the mail unencrypted; use tls or starttls (none only for 127.0.0.1, ::1 or localhost, or with allow_plaintext = true)", s.Host)
	}
	s.Username = a.Username
	if v, ok := t.str("smtp_username"); ok {
		if strings.TrimSpace(v) == "" || hasControl(v) {
			t.errorf("smtp_username", "must not be empty or hold control characters")
		}
		s.Username = v
	}
	a.SMTP = s
}

// defaultSMTPPort is the submission port of each security: 465 (implicit
// TLS, RFC 8314), 587 (STARTTLS), 25 for plain SMTP on loopback.
func defaultSMTPPort(security string) int {
	switch security {
	case SecuritySTARTTLS:
		return 587
	case SecurityNone:
		return 25
	}
	return 465
}

// ErrNoSMTP is what trying to send from an IMAP account without
// smtp_host says.
var ErrNoSMTP = errors.New("sending is not configured for this account (smtp_host)")

// composeTable decodes [compose] over the defaults in c.
func composeTable(t *table, c Compose) Compose {
	if s, ok := t.str("editor"); ok {
		switch {
		case strings.TrimSpace(s) == "":
			t.errorf("editor", "must not be empty; leave it out to use $VISUAL, then $EDITOR, then vi")
		case hasControl(s):
			t.errorf("editor", "must not contain control characters")
		default:
			c.Editor = s
		}
	}
	if b, ok := t.boolean("abort_unmodified"); ok {
		c.AbortUnmodified = b
	}
	if d, ok := t.duration("send_delay"); ok {
		switch {
		case d < 0:
			t.errorf("send_delay", "must not be negative (\"0s\" sends at once)")
		case d > MaxSendDelay:
			t.errorf("send_delay", "%s is longer than %s: a delay is for taking a message back, not for scheduling it", d, MaxSendDelay)
		default:
			c.SendDelay = Duration{d}
		}
	}
	if b, ok := t.boolean("signature_above_quote"); ok {
		c.SignatureAboveQuote = b
	}
	if list, ok := t.argv("address_book_cmd", `["khard", "email", "--parsable", "--remove-first-line", "{query}"]`); ok {
		if err := checkAddressBookCmd(list); err != nil {
			t.errorf("address_book_cmd", "%v", err)
		} else {
			c.AddressBookCmd = list
		}
	}
	t.finish()
	return c
}

// agentTable decodes [agent] over the defaults in a.
func agentTable(t *table, a Agent) Agent {
	if n, ok := t.integer("max_drafts_per_hour"); ok {
		if n < 0 || n > MaxMaxDraftsPerHour {
			t.errorf("max_drafts_per_hour", "must be between 0 (agents may not draft) and %d (got %d)", MaxMaxDraftsPerHour, n)
		} else {
			a.MaxDraftsPerHour = n
		}
	}
	if n, ok := t.integer("max_rule_proposals_per_hour"); ok {
		if n < 0 || n > MaxMaxRuleProposalsPerHour {
			t.errorf("max_rule_proposals_per_hour", "must be between 0 (agents may not propose rules) and %d (got %d)", MaxMaxRuleProposalsPerHour, n)
		} else {
			a.MaxRuleProposalsPerHour = n
		}
	}
	t.finish()
	return a
}
