package config

import (
	"strings"
	"testing"
)

func TestSnoozeFolder(t *testing.T) {
	acct := "[[account]]\nname = \"w\"\nhost = \"imap.example.com\"\nusername = \"me\"\npassword_env = \"PW\"\n"
	for _, tc := range []struct {
		name, line, want, err string
	}{
		{"unset: the default, applied by accounts", "", "", ""},
		{"set", "snooze_folder = \"Later\"\n", "Later", ""},
		{"empty", "snooze_folder = \"\"\n", "", "snooze_folder: must not be empty"},
		{"inbox", "snooze_folder = \"inbox\"\n", "", "snooze_folder: must not be INBOX"},
		{"control", "snooze_folder = \"a\\u0007b\"\n", "", "snooze_folder: must not contain control characters"},
		{"too long", "snooze_folder = \"" + strings.Repeat("x", 256) + "\"\n", "", "snooze_folder: is 256 bytes; at most 255"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse("config.toml", []byte(acct+tc.line))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || cfg.Accounts[0].SnoozeFolder != tc.want {
				t.Fatalf("got %+v, %v", cfg, err)
			}
		})
	}
}
