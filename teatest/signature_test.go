package teatest

import (
	"fmt"
	"io"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// A reply written in the TUI is signed with the output of the account's
// signature_cmd (a real child, from a config file on disk), under a "-- "
// line below the quote: in the editor's text, on the review screen, and
// in what reaches the recipient.
func TestReplyIsSigned(t *testing.T) {
	srv, _, set, box, runner := mailWorld(t, func(c *config.Config) {
		text := fmt.Sprintf(`[[account]]
name = "Work"
host = "127.0.0.1"
port = %d
security = "none"
username = "sam"
password_env = "UNIBOX_TEST_UNUSED"
from = "Sam <sam@example.com>"
signature_cmd = ["printf", "%%s\\n", "Sam", "sent by the signature command"]
smtp_host = "127.0.0.1"
smtp_port = %d
smtp_security = "none"
save_sent = "always"
`, c.Accounts[0].Port, c.Accounts[0].SMTP.Port)
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		loaded, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		*c = *loaded
	})
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: editorScript(t, "Yes, noon works.")}
	tm, _ := run(t, uiAccounts(set), 100, 40, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	waitFor(t, tm, "lunch?")
	tm.Send(key("enter"))
	waitFor(t, tm, "Noon?")
	tm.Send(key("r"))
	waitFor(t, tm, "review · y send", "Yes, noon works.", "sent by the signature command")
	tm.Send(key("y"))
	waitFor(t, tm, "sent: Re: lunch?")

	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	if len(bob) != 1 {
		t.Fatalf("bob's INBOX holds %d messages", len(bob))
	}
	_, body, _ := strings.Cut(string(bob[0].Raw), "\r\n\r\n")
	got, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "> Noon?\r\n\r\n-- \r\nSam\r\nsent by the signature command\r\n"; !strings.HasSuffix(string(got), want) ||
		!strings.HasPrefix(string(got), "Yes, noon works.\r\n") {
		t.Fatalf("the reply's text:\n%q\nwant it to end with\n%q", got, want)
	}
}
