package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestSendingKeys checks the sending keys' defaults, presets and values.
func TestSendingKeys(t *testing.T) {
	const acct = "[[account]]\nname = \"w\"\nhost = \"imap.example.com\"\nusername = \"me@example.org\"\npassword_env = \"PW\"\n"
	tests := []struct {
		name string
		src  string
		want func(a Account, c Compose) string // "" when right
	}{
		{"reads only without smtp_host", acct, func(a Account, c Compose) string {
			if a.SMTP != nil || a.SaveSent != SaveSentAuto || c.SendDelay.Duration != 10*time.Second || c.Editor != "" || !c.AbortUnmodified {
				return "a read-only account or the compose defaults changed"
			}
			return ""
		}},
		{"from defaults to an address username", acct, func(a Account, _ Compose) string {
			if a.From == nil || a.From.Address != "me@example.org" || a.From.Name != "" {
				return "from is not the username"
			}
			return ""
		}},
		{"from and aliases", acct + "from = \"Alice Ö <alice@example.org>\"\naliases = [\"a@example.net\", \"Al <al@example.com>\"]\n", func(a Account, _ Compose) string {
			if a.From.Name != "Alice Ö" || a.From.Address != "alice@example.org" || !reflect.DeepEqual(a.Aliases, []string{"a@example.net", "al@example.com"}) {
				return "from or aliases misread"
			}
			return ""
		}},
		{"tls defaults to 465 and the username", acct + "smtp_host = \"smtp.example.org\"\n", func(a Account, _ Compose) string {
			if *a.SMTP != (SMTP{Host: "smtp.example.org", Port: 465, Security: SecurityTLS, Username: "me@example.org"}) {
				return "smtp defaults wrong"
			}
			return ""
		}},
		{"starttls defaults to 587", acct + "smtp_host = \"smtp.example.org\"\nsmtp_security = \"starttls\"\nsmtp_username = \"other\"\n", func(a Account, _ Compose) string {
			if *a.SMTP != (SMTP{Host: "smtp.example.org", Port: 587, Security: SecuritySTARTTLS, Username: "other"}) {
				return "starttls port or smtp_username wrong"
			}
			return ""
		}},
		{"none on loopback", acct + "smtp_host = \"127.0.0.1\"\nsmtp_security = \"none\"\nsmtp_port = 2525\n", func(a Account, _ Compose) string {
			if a.SMTP.Port != 2525 || a.SMTP.Security != SecurityNone {
				return "none on loopback refused or port lost"
			}
			return ""
		}},
		{"gmail preset saves its own", "[[account]]\nname = \"g\"\nprovider = \"gmail\"\nusername = \"me@gmail.com\"\npassword_env = \"PW\"\n", func(a Account, _ Compose) string {
			if a.SMTP == nil || a.SMTP.Host != "smtp.gmail.com" || a.SMTP.Port != 465 || !a.ServerSavesSent || a.SaveSent != SaveSentAuto {
				return "gmail preset lacks its SMTP or its own Sent copy"
			}
			return ""
		}},
		{"outlook preset asks SMTP.Send", "[[account]]\nname = \"o\"\nprovider = \"outlook\"\nusername = \"me@outlook.com\"\noauth2_client_id = \"c\"\nrefresh_token_cmd = \"r\"\n", func(a Account, _ Compose) string {
			if a.SMTP.Host != "smtp.office365.com" || a.SMTP.Port != 587 || a.SMTP.Security != SecuritySTARTTLS || a.OAuth2 == nil ||
				!strings.Contains(strings.Join(a.OAuth2.Scopes, " "), "https://outlook.office.com/SMTP.Send") {
				return "outlook preset lacks SMTP or the SMTP.Send scope"
			}
			return ""
		}},
		{"icloud preset, own security changes the port", "[[account]]\nname = \"i\"\nprovider = \"icloud\"\nusername = \"me@icloud.com\"\npassword_env = \"PW\"\nsmtp_security = \"tls\"\n", func(a Account, _ Compose) string {
			if a.SMTP.Host != "smtp.mail.me.com" || a.SMTP.Port != 465 || a.ServerSavesSent {
				return "icloud preset's port did not follow smtp_security"
			}
			return ""
		}},
		{"save_sent and folders", acct + "save_sent = \"never\"\nsent_folder = \"Sent Items\"\ndrafts_folder = \"Entwürfe\"\n", func(a Account, _ Compose) string {
			if a.SaveSent != SaveSentNever || a.SentFolder != "Sent Items" || a.DraftsFolder != "Entwürfe" {
				return "save_sent or folders misread"
			}
			return ""
		}},
		{"compose", acct + "[compose]\neditor = \"nvim -u NONE\"\nsend_delay = \"0s\"\nabort_unmodified = false\n", func(_ Account, c Compose) string {
			if c.Editor != "nvim -u NONE" || c.SendDelay.Duration != 0 || c.AbortUnmodified {
				return "compose misread"
			}
			return ""
		}},
		{"mcp account has an identity", "[[account]]\nname = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\nprofile = \"x\"\nfrom = \"me@example.org\"\n", func(a Account, _ Compose) string {
			if a.From == nil || a.From.Address != "me@example.org" || a.SMTP != nil {
				return "an mcp account's from misread"
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("t.toml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if msg := tt.want(c.Accounts[0], c.Compose); msg != "" {
				t.Errorf("%s: %+v smtp %+v compose %+v", msg, c.Accounts[0], c.Accounts[0].SMTP, c.Compose)
			}
		})
	}
}

// TestSendingKeysBad checks that every bad sending key names its line.
func TestSendingKeysBad(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bad from", imapOK + "from = \"not an address\"\n", `t.toml:6: account[0].from: "not an address" is not an address`},
		{"bad alias", imapOK + "aliases = [\"ok@example.org\", \"@@\"]\n", `t.toml:6: account[0].aliases: "@@" is not an address`},
		{"smtp_port without host", imapOK + "smtp_port = 587\n", "t.toml:6: account[0].smtp_port: needs smtp_host"},
		{"smtp_host url", imapOK + "smtp_host = \"smtps://smtp.example.org\"\n", `t.toml:6: account[0].smtp_host: "smtps://smtp.example.org" is a URL`},
		{"smtp_security", imapOK + "smtp_host = \"s\"\nsmtp_security = \"ssl\"\n", `t.toml:7: account[0].smtp_security: "ssl" is not one of tls, starttls, none`},
		{"plain smtp to a remote host", imapOK + "smtp_host = \"smtp.example.org\"\nsmtp_security = \"none\"\n", `t.toml:7: account[0].smtp_security: smtp_security = "none" to "smtp.example.org" would send the password`},
		{"smtp port range", imapOK + "smtp_host = \"s\"\nsmtp_port = 0\n", "t.toml:7: account[0].smtp_port: 0 is not a port number"},
		{"save_sent", imapOK + "save_sent = \"sometimes\"\n", `t.toml:6: account[0].save_sent: "sometimes" is not one of auto, always, never`},
		{"smtp on mcp", "name = \"m\"\nkind = \"mcp\"\ncommand = [\"srv\"]\nprofile = \"x\"\nsmtp_host = \"s\"\n", `t.toml:6: account[0].smtp_host: only for kind = "imap" accounts`},
		{"negative delay", imapOK + "[compose]\nsend_delay = \"-1s\"\n", "t.toml:7: compose.send_delay: must not be negative"},
		{"long delay", imapOK + "[compose]\nsend_delay = \"1h\"\n", "t.toml:7: compose.send_delay: 1h0m0s is longer than 10m0s"},
		{"empty editor", imapOK + "[compose]\neditor = \" \"\n", "t.toml:7: compose.editor: must not be empty"},
		{"unknown compose key", imapOK + "[compose]\nsend_dealy = \"1s\"\n", "t.toml:7: compose.send_dealy: unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte("[[account]]\n"+tt.src))
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant %s...", err, tt.want)
			}
		})
	}
}
