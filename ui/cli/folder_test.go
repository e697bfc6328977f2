package cli_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// seed delivers one message per subject into sam's folder, the last
// the newest.
func seed(t *testing.T, srv *memimap.Server, folder string, subjects ...string) {
	t.Helper()
	for i, s := range subjects {
		raw := imaptest.Mail{From: "Sam <sam@example.com>", To: "ann@example.com", Subject: s, Date: time.Now().Add(time.Duration(i-len(subjects)) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", folder, raw, []imap.Flag{imap.FlagSeen}, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// `unibox list --folder NAME` lists that folder instead of the inbox, from
// each server, through the real serve-imap children: "Sent" is the sent
// folder of an account that calls it "Sent Items" too. Listed once, the
// folder is in the store for --cached; one never stored says so, and a
// folder no account has is an error naming it and the folders there are.
func TestListFolder(t *testing.T) {
	home := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Archive": imap.MailboxAttrArchive})
	work := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Sent Items": imap.MailboxAttrSent})
	seed(t, home, "INBOX", "inbox only")
	seed(t, home, "Sent", "home sent 0", "home sent 1")
	seed(t, work, "Sent Items", "work sent 0")
	seed(t, home, "Archive", "archived")
	t.Setenv("UNIBOX_TEST_PW", "pw")
	pw := facetest.Env("UNIBOX_TEST_PW")
	path := facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Home", home.Port(), pw)+facetest.IMAP("Work", work.Port(), pw))

	out, code, stderr := facetest.ListJSON(t, "--config", path, "--folder", "Sent")
	subj, stale := facetest.Listed(out)
	if code != launch.ExitOK || !slices.Equal(subj, []string{"home sent 1", "work sent 0", "home sent 0"}) || slices.Contains(stale, true) {
		t.Fatalf("list --folder Sent: exit %d, %v %v\n%s", code, subj, stale, stderr)
	}
	if out.Messages[0].Folder != "Sent" || out.Messages[1].Folder != "Sent Items" {
		t.Fatalf("folders: %q, %q", out.Messages[0].Folder, out.Messages[1].Folder)
	}

	var text, errText bytes.Buffer
	if code := cli.List([]string{"--config", path, "--folder", "Sent", "--account", "Home"}, &text, &errText); code != launch.ExitOK ||
		!strings.Contains(text.String(), "home sent 1") || strings.Contains(text.String(), "inbox only") {
		t.Fatalf("text list --folder Sent: exit %d\n%s%s", code, text.String(), errText.String())
	}
	// A Sent listing names whom each message went to, not its sender (the
	// person who lists it).
	if s := text.String(); !strings.Contains(s, "  TO  ") || strings.Contains(s, "FROM") || !strings.Contains(s, "ann@example.com") || strings.Contains(s, "Sam") {
		t.Fatalf("text list --folder Sent names the sender, not the recipient:\n%s", s)
	}

	out, code, _ = facetest.ListJSON(t, "--config", path, "--folder", "Sent", "--cached", "--account", "Home")
	if subj, stale := facetest.Listed(out); code != launch.ExitOK || !slices.Equal(subj, []string{"home sent 1", "home sent 0"}) || !stale[0] {
		t.Fatalf("list --cached --folder Sent: exit %d, %v %v", code, subj, stale)
	}
	out, code, stderr = facetest.ListJSON(t, "--config", path, "--folder", "Archive", "--cached", "--account", "Home")
	if code != launch.ExitNone || len(out.Messages) != 0 || !strings.Contains(out.Accounts[0].Error, `folder "Archive" was never stored`) ||
		!strings.Contains(stderr, `folder "Archive" was never stored`) {
		t.Fatalf("list --cached of a folder never stored: exit %d, %+v\n%s", code, out.Accounts, stderr)
	}

	out, code, stderr = facetest.ListJSON(t, "--config", path, "--folder", "Nope")
	if code != launch.ExitNone || len(out.Messages) != 0 {
		t.Fatalf("list --folder Nope: exit %d, %+v", code, out)
	}
	for i, want := range []string{`no folder "Nope" (folders: `, `no folder "Nope" (folders: `} {
		if a := out.Accounts[i]; !strings.HasPrefix(a.Error, want) || a.ErrorClass == "none" || a.State != "connected" {
			t.Fatalf("%s: %q (%s, %s), want %q...", a.Name, a.Error, a.ErrorClass, a.State, want)
		}
	}
	if !strings.Contains(out.Accounts[0].Error, "Archive") || !strings.Contains(out.Accounts[1].Error, "Sent Items") ||
		!strings.Contains(stderr, fmt.Sprintf("unibox list: Home: no folder %q", "Nope")) {
		t.Fatalf("the error names neither the folders there are nor goes to stderr: %+v\n%s", out.Accounts, stderr)
	}
}

// `list --json` says which messages were answered or forwarded
// (\Answered, $Forwarded), as the TUI's rows mark them.
func TestListSaysAnsweredAndForwarded(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	for _, m := range []struct {
		subject string
		flags   []imap.Flag
	}{{"plain", nil}, {"answered", []imap.Flag{imap.FlagAnswered}}, {"forwarded", []imap.Flag{"$Forwarded"}}} {
		raw := imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: m.subject, Date: time.Now().Add(-time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, m.flags, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("UNIBOX_TEST_PW", "pw")
	path := facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Home", srv.Port(), facetest.Env("UNIBOX_TEST_PW")))
	out, code, stderr := facetest.ListJSON(t, "--config", path)
	if code != launch.ExitOK || len(out.Messages) != 3 {
		t.Fatalf("list: exit %d, %d messages\n%s", code, len(out.Messages), stderr)
	}
	for _, m := range out.Messages {
		if m.Answered != (m.Subject == "answered") || m.Forwarded != (m.Subject == "forwarded") {
			t.Errorf("%q: answered %v, forwarded %v", m.Subject, m.Answered, m.Forwarded)
		}
	}
}
