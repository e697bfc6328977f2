package agent

import (
	"fmt"
	"io"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
)

// signedConfig replaces the world's config with one loaded from a file
// on disk: the same servers, from sam@, the alias lists@ with its own
// signature file, the account's signature from signature_cmd (a real
// child), above the quote.
func signedConfig(t *testing.T) func(*config.Config) {
	return func(c *config.Config) {
		t.Helper()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "lists.sig"), []byte("-- \nSam, for the list\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf(`[[account]]
name = "Work"
host = "127.0.0.1"
port = %d
security = "none"
username = "sam"
password_env = "UNIBOX_TEST_UNUSED"
from = "Sam <sam@example.com>"
aliases = ["lists@example.net"]
signature_cmd = ["printf", "%%s\\n", "Sam", "sent by the signature command"]
signatures = { "lists@example.net" = "lists.sig" }
smtp_host = "127.0.0.1"
smtp_port = %d
smtp_security = "none"
save_sent = "always"

[compose]
signature_above_quote = true
`, c.Accounts[0].Port, c.Accounts[0].SMTP.Port)
		path := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		loaded, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		loaded.Resilience = c.Resilience
		*c = *loaded
	}
}

// An agent's drafts are signed as a person's are: a reply with the
// signature of the address it goes out from (the alias's own file, the
// account's signature_cmd), above the quote as [compose] says, and a new
// message at its end.
func TestAgentDraftsAreSigned(t *testing.T) {
	w := newDraftWorld(t, signedConfig(t))
	toList := imaptest.Mail{From: "Bob <bob@example.com>", To: "lists@example.net", Subject: "list meeting", MessageID: "list-1@example.com",
		Date: time.Now().Add(-time.Minute), Body: "Thursday?"}.Bytes()
	if _, err := w.srv.Append("sam", "INBOX", toList, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	r, _ := w.hub(t, 100)
	var l ListOut
	r.mustCall(t, "list_messages", ListIn{}, &l)
	ids := map[string]string{}
	for _, m := range l.Messages {
		ids[m.Subject] = m.ID
	}
	var out DraftOut
	r.mustCall(t, "draft_reply", map[string]any{"id": ids["lunch?"], "body": "Noon works."}, &out)
	r.mustCall(t, "draft_reply", map[string]any{"id": ids["list meeting"], "body": "Thursday is fine."}, &out)
	r.mustCall(t, "draft_message", map[string]any{"account": "Work", "to": []string{"carol@example.com"}, "subject": "hello", "body": "Hi Carol."}, &out)
	drafts := w.folder(t, "Drafts")
	if len(drafts) != 3 {
		t.Fatalf("Drafts holds %d messages, want 3", len(drafts))
	}
	var texts []string // each draft's text part, decoded (the "-- " line's space makes it quoted-printable)
	for _, d := range drafts {
		_, body, _ := strings.Cut(string(d.Raw), "\r\n\r\n")
		text, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(text))
		if n := strings.Count(string(text), "\r\n-- \r\n"); n != 1 {
			t.Errorf("a draft is signed %d times:\n%s", n, d.Raw)
		}
	}
	for _, want := range []string{
		"Noon works.\r\n\r\n-- \r\nSam\r\nsent by the signature command\r\n\r\nOn ",
		"Thursday is fine.\r\n\r\n-- \r\nSam, for the list\r\n\r\nOn ",
		"Hi Carol.\r\n\r\n-- \r\nSam\r\nsent by the signature command\r\n",
	} {
		if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("no draft holds %q:\n%s", want, strings.Join(texts, "\n----\n"))
		}
	}
}
