package config

import (
	"maps"
	"slices"
	"strings"
)

// Preset is what provider = "NAME" fills in for an IMAP account; any key
// the account sets itself wins.
type Preset struct {
	Host     string
	Port     int
	Security string
	// Auth is how the provider's accounts log in, unless the account names
	// a password (password_cmd, password_env: an app password).
	Auth     string
	TokenURL string   // the built-in refresh's token endpoint
	Scopes   []string // what the built-in refresh asks for
	// Where the provider takes submissions (smtp_host, smtp_port,
	// smtp_security), and whether its server files a copy in Sent by
	// itself: then save_sent = "auto" appends none and skips the search.
	SMTPHost        string
	SMTPPort        int
	SMTPSecurity    string
	ServerSavesSent bool
}

// Presets are the providers people have most.
var Presets = map[string]Preset{
	"gmail": {Host: "imap.gmail.com", Port: 993, Security: SecurityTLS, Auth: AuthOAuth2,
		TokenURL: "https://oauth2.googleapis.com/token", Scopes: []string{"https://mail.google.com/"},
		SMTPHost: "smtp.gmail.com", SMTPPort: 465, SMTPSecurity: SecurityTLS, ServerSavesSent: true},
	// SMTP.Send is asked for beside IMAP: a refresh token consented
	// before it was added needs the consent again (README).
	"outlook": {Host: "outlook.office365.com", Port: 993, Security: SecurityTLS, Auth: AuthOAuth2,
		TokenURL: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
		Scopes:   []string{"https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send", "offline_access"},
		SMTPHost: "smtp.office365.com", SMTPPort: 587, SMTPSecurity: SecuritySTARTTLS, ServerSavesSent: true},
	"fastmail": {Host: "imap.fastmail.com", Port: 993, Security: SecurityTLS, Auth: AuthPassword,
		SMTPHost: "smtp.fastmail.com", SMTPPort: 465, SMTPSecurity: SecurityTLS},
	"icloud": {Host: "imap.mail.me.com", Port: 993, Security: SecurityTLS, Auth: AuthPassword,
		SMTPHost: "smtp.mail.me.com", SMTPPort: 587, SMTPSecurity: SecuritySTARTTLS},
	"yahoo": {Host: "imap.mail.yahoo.com", Port: 993, Security: SecurityTLS, Auth: AuthPassword,
		SMTPHost: "smtp.mail.yahoo.com", SMTPPort: 465, SMTPSecurity: SecurityTLS},
}

// preset reads provider; nil when absent or unknown (reported).
func preset(t *table) *Preset {
	s, ok := t.str("provider")
	if !ok {
		return nil
	}
	p, known := Presets[s]
	if !known {
		t.errorf("provider", "%q is not one of %s", s, strings.Join(slices.Sorted(maps.Keys(Presets)), ", "))
		return nil
	}
	return &p
}
