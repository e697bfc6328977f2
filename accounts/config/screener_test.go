package config

import (
	"strings"
	"testing"
)

func TestScreenerKeys(t *testing.T) {
	acct := "[[account]]\nname = \"w\"\nhost = \"imap.example.com\"\nusername = \"me\"\npassword_env = \"PW\"\n"
	for _, tc := range []struct {
		name, lines string
		on          bool
		out, err    string
	}{
		{"unset: off, archive", "", false, "archive", ""},
		{"off", "screener = \"off\"\n", false, "archive", ""},
		{"new senders", "screener = \"new_senders\"\n", true, "archive", ""},
		{"trash", "screener = \"new_senders\"\nscreen_out = \"trash\"\n", true, "trash", ""},
		{"a folder", "screener = \"new_senders\"\nscreen_out = \"Screened Out\"\n", true, "Screened Out", ""},
		{"unknown mode", "screener = \"strict\"\n", false, "", `config.toml:6: account[0].screener: "strict" is not one of "off", "new_senders"`},
		{"not a string", "screener = true\n", false, "", "config.toml:6: account[0].screener: must be a string"},
		{"inbox", "screen_out = \"Inbox\"\n", false, "", "config.toml:6: account[0].screen_out: must not be INBOX"},
		{"empty", "screen_out = \" \"\n", false, "", "config.toml:6: account[0].screen_out: must not be empty"},
		{"control", "screen_out = \"a\\u001bb\"\n", false, "", "screen_out: must not contain control characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse("config.toml", []byte(acct+tc.lines))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a := cfg.Accounts[0]; a.Screener != tc.on || a.ScreenOutOr() != tc.out {
				t.Fatalf("screener %v, screen_out %q; want %v, %q", a.Screener, a.ScreenOut, tc.on, tc.out)
			}
		})
	}
}
