package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// signatureDir writes the signature files the cases read, beside the
// config file they are relative to.
func signatureDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"sig":      "-- \r\nAlice Example\r\nExample Corp\r\n\r\n",
		"alt.sig":  "Alice, for the list\n",
		"bidi.sig": "Alice\nExample \u202eCorp\n",
		"big.sig":  strings.Repeat("x", maxSignature+1),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// signature_file is read at load, relative to the config file, its
// "-- " line and CRLF ends taken off; an alias's own is found by its
// address in any case; signature_above_quote is read.
func TestSignatureKeys(t *testing.T) {
	dir := signatureDir(t)
	path := filepath.Join(dir, "t.toml")
	src := "[[account]]\n" + imapOK + "from = \"Alice <alice@example.org>\"\naliases = [\"Lists@Example.net\"]\n" +
		"signature_file = \"sig\"\nsignatures = { \"lists@example.NET\" = \"alt.sig\" }\n[compose]\nsignature_above_quote = true\n"
	c, err := Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a := c.Accounts[0]
	if a.Signature == nil || a.Signature.File != filepath.Join(dir, "sig") || a.Signature.Text != "Alice Example\nExample Corp" {
		t.Fatalf("signature_file read as %+v", a.Signature)
	}
	if alt := a.AliasSignatures["lists@example.net"]; alt == nil || alt.Text != "Alice, for the list" {
		t.Fatalf("the alias's own signature: %+v", a.AliasSignatures)
	}
	if !c.Compose.SignatureAboveQuote {
		t.Fatal("signature_above_quote = true was not read")
	}
	for from, want := range map[string]string{"alice@example.org": "Alice Example\nExample Corp", "LISTS@example.net": "Alice, for the list", "other@example.org": "Alice Example\nExample Corp"} {
		if got, err := a.SignatureFor(t.Context(), from); err != nil || got != want {
			t.Errorf("SignatureFor(%s) = %q, %v; want %q", from, got, err, want)
		}
	}
	plain, err := Parse(path, []byte("[[account]]\n"+imapOK))
	if err != nil || plain.Accounts[0].Signature != nil || plain.Compose.SignatureAboveQuote {
		t.Fatalf("without the keys: %+v, above %v, %v", plain.Accounts[0].Signature, plain.Compose.SignatureAboveQuote, err)
	}
	if got, err := plain.Accounts[0].SignatureFor(t.Context(), "me@example.org"); got != "" || err != nil {
		t.Fatalf("no signature configured signs with %q, %v", got, err)
	}
}

// Every way a signature key is wrong is a FILE:LINE key error, naming
// the file when it is the file that is wrong.
func TestSignatureKeysBad(t *testing.T) {
	dir := signatureDir(t)
	path := filepath.Join(dir, "t.toml")
	for _, tt := range []struct{ name, keys, want string }{
		{"missing file", `signature_file = "nope.sig"`,
			"t.toml:6: account[0].signature_file: " + filepath.Join(dir, "nope.sig") + " does not exist"},
		{"a character the review refuses", `signature_file = "bidi.sig"`,
			"t.toml:6: account[0].signature_file: refused: " + filepath.Join(dir, "bidi.sig") + ", line 2, holds a bidi control (U+202E)"},
		{"too big", `signature_file = "big.sig"`,
			"t.toml:6: account[0].signature_file: " + filepath.Join(dir, "big.sig") + " is over 16384 bytes"},
		{"a folder", `signature_file = "folder"`,
			"t.toml:6: account[0].signature_file: " + filepath.Join(dir, "folder") + " is not a regular file"},
		{"both", "signature_file = \"sig\"\nsignature_cmd = [\"fortune\"]",
			"t.toml:7: account[0].signature_cmd: set only one of signature_file and signature_cmd"},
		{"no program", `signature_cmd = []`, "t.toml:6: account[0].signature_cmd: needs a program"},
		{"a command line, not a list", `signature_cmd = "fortune -s"`, "t.toml:6: account[0].signature_cmd: must be an array of strings"},
		{"an address that is not the account's", "from = \"a@example.org\"\nsignatures = { \"bob@example.net\" = \"sig\" }",
			`t.toml:7: account[0].signatures."bob@example.net": "bob@example.net" is not this account's from or one of its aliases`},
		{"an alias's missing file", "aliases = [\"l@example.net\"]\n\n[account.signatures]\n\"l@example.net\" = \"gone.sig\"",
			`t.toml:9: account[0].signatures."l@example.net": ` + filepath.Join(dir, "gone.sig") + " does not exist"},
		{"above_quote not a boolean", "[compose]\nsignature_above_quote = \"yes\"", "t.toml:7: compose.signature_above_quote: must be true or false"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(path, []byte("[[account]]\n"+imapOK+tt.keys+"\n"))
			var ce *Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant an error containing %q", err, tt.want)
			}
		})
	}
}
