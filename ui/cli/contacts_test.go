package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// contacts runs `unibox contacts` and returns its stdout, exit code and
// stderr.
func contacts(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Contacts(args, &stdout, &stderr)
	return stdout.String(), code, stderr.String()
}

// contactsMail fills sam's INBOX and Sent: Mom as Sam wrote to her, a
// stranger calling himself Mom who writes often, a newsletter, and
// someone Sam only heard from.
func contactsMail(t *testing.T) *memimap.Server {
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent})
	add := func(folder string, ago time.Duration, m imaptest.Mail) {
		m.Date, m.Body = time.Now().Add(-ago), "x"
		if _, err := srv.Append("sam", folder, m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("Sent", 90*24*time.Hour, imaptest.Mail{From: "Sam <sam@example.com>", To: "Mom <mother@family.example>", Subject: "sunday"})
	for i := range 5 {
		add("INBOX", time.Duration(i)*time.Hour, imaptest.Mail{From: "Mom <evil@attacker.example>", To: "sam@example.com", Subject: fmt.Sprint("urgent ", i)})
	}
	add("INBOX", time.Hour, imaptest.Mail{From: "Monica Bell <monica@example.org>", To: "sam@example.com", Subject: "hi"})
	add("INBOX", time.Hour, imaptest.Mail{From: "Mondo Shop <noreply@mondo.example>", To: "sam@example.com", Subject: "deals"})
	return srv
}

// `unibox contacts` answers from the store with the server gone: the
// address Sam wrote to first, the stranger's "Mom" after it with his own
// address beside it, robots last; aerc's address<TAB>name lines or
// --json; --limit; none found exits 1; no query is a usage error.
func TestContactsFromTheStore(t *testing.T) {
	srv := contactsMail(t)
	t.Setenv("UNIBOX_TEST_PW", "pw")
	path := facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")+"\nfrom = \"Sam <sam@example.com>\""))
	if _, code := facetest.SyncJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("the sync that fills the store (INBOX, then Sent): exit %d", code)
	}
	srv.Close() // offline from here on

	out, code, stderr := contacts(t, "--config", path, "mo")
	want := "mother@family.example\tMom\nevil@attacker.example\tMom\nmonica@example.org\tMonica Bell\nnoreply@mondo.example\tMondo Shop\n"
	if code != launch.ExitOK || out != want {
		t.Fatalf("exit %d, stderr %q:\n%s\nwant:\n%s", code, stderr, out, want)
	}

	out, code, _ = contacts(t, "--config", path, "--json", "--limit", "2", "mom")
	var got cli.ContactsJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != launch.ExitOK {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if len(got.Contacts) != 2 || got.Contacts[0].Address != "mother@family.example" || got.Contacts[0].Sent != 1 || got.Contacts[0].Received != 0 ||
		got.Contacts[1].Address != "evil@attacker.example" || got.Contacts[1].Received != 5 || got.Contacts[1].Last == "" {
		t.Fatalf("--json: %+v", got)
	}
	for _, key := range []string{`"contacts"`, `"address"`, `"name"`, `"sent"`, `"received"`, `"last"`} {
		if !strings.Contains(out, key) {
			t.Fatalf("--json lacks %s:\n%s", key, out)
		}
	}

	if out, code, _ := contacts(t, "--config", path, "--json", "zeppelin"); code != launch.ExitNone || !strings.Contains(out, `"contacts": []`) {
		t.Fatalf("none found: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"--config", path}, {"--config", path, "--limit", "0", "mo"}, {"--bogus", "mo"}} {
		if _, code, stderr := contacts(t, args...); code != launch.ExitUsage || !strings.Contains(stderr, "contacts") {
			t.Fatalf("%q: exit %d, %q", args, code, stderr)
		}
	}
}
