// Package facetest runs unibox's faces in tests: it writes their configs
// (the one place test TOML is written, so a key renamed in accounts/config
// is renamed once), starts the loopback IMAP server they read, runs the
// script faces in process and the agent face as a child, and lets a test
// binary stand in for the unibox binary (Main). The tests of ui/cli,
// ui/agent, ui/launch and ui/binarytest share it.
package facetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// Write writes cfg as a config file (0600, as unibox wants) and returns
// its path. The test gets its own local store, account histories, drafts
// and outbox too ($XDG_CACHE_HOME, $XDG_STATE_HOME, $XDG_DATA_HOME):
// tests reuse account names, hosts and users.
func Write(t testing.TB, cfg string) string {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // drafts and the outbox
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Resilience is a [resilience] table whose backoff base and cap are both
// backoff (e.g. "1m": an account that failed is still cooling down, not
// dialling again, whenever a test looks).
func Resilience(backoff string) string {
	return fmt.Sprintf("[resilience]\nbackoff_base = %q\nbackoff_cap = %q\n", backoff, backoff)
}

// IMAP is an [[account]] table: user sam on the loopback server at port,
// in plain text; rest is the account's other lines, its password at
// least (see Env).
func IMAP(name string, port int, rest string) string { return IMAPAs(name, "sam", port, rest) }

// IMAPAs is IMAP for another user than sam.
func IMAPAs(name, user string, port int, rest string) string {
	return fmt.Sprintf("\n[[account]]\nname = %q\nhost = \"127.0.0.1\"\nport = %d\nsecurity = \"none\"\nusername = %q\n%s\n", name, port, user, rest)
}

// Env is the password line that reads the password from the environment
// variable name.
func Env(name string) string { return fmt.Sprintf("password_env = %q", name) }

// Sam is an in-process IMAP server on 127.0.0.1 with one user, sam, and
// the given folders beside INBOX; it stops when the test ends.
func Sam(t testing.TB, password string, folders map[string]imap.MailboxAttr) *memimap.Server {
	t.Helper()
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := srv.AddUser("sam", password, folders); err != nil {
		t.Fatal(err)
	}
	return srv
}

// OneAccount is a config with one account, Work, on srv (password "pw" in
// UNIBOX_TEST_PW), cooling down for a minute after a failure.
func OneAccount(t testing.TB, srv *memimap.Server) string {
	t.Setenv("UNIBOX_TEST_PW", "pw")
	return Write(t, Resilience("1m")+IMAP("Work", srv.Port(), Env("UNIBOX_TEST_PW")))
}

// ThreeAccounts writes a config: Work healthy (an in-process server with
// three messages, Archive and Trash), Down refusing, Hung silent. The
// password, in UNIBOX_TEST_PW, is canary-secret-31337: no output may
// show it. Cooldowns last a minute, so Down is still cooling down (not
// probing again) whenever a test looks.
func ThreeAccounts(t testing.TB) string {
	srv := Sam(t, "canary-secret-31337", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Trash": imap.MailboxAttrTrash})
	for i := range 3 {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: fmt.Sprintf("hello %d", i), Date: time.Now().Add(-time.Duration(i) * time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("UNIBOX_TEST_PW", "canary-secret-31337")
	pw := Env("UNIBOX_TEST_PW")
	return Write(t, Resilience("1m")+IMAP("Work", srv.Port(), pw)+IMAP("Down", imaptest.ClosedPort(t), pw)+IMAP("Hung", imaptest.HungServer(t), pw))
}

// Hostile serves imaptest's hostile corpus from an in-process server
// (with non-ASCII folder names) and writes a config reaching it, account
// Hostile.
func Hostile(t testing.TB) string {
	srv := Sam(t, "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive, "Entwürfe": imap.MailboxAttrDrafts, "日本語": ""})
	for _, m := range imaptest.HostileCorpus() {
		if _, err := srv.Append("sam", "INBOX", m.Raw, nil, time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
	}
	t.Setenv("UNIBOX_HOSTILE_PW", "pw")
	return Write(t, IMAP("Hostile", srv.Port(), Env("UNIBOX_HOSTILE_PW")))
}

// AppendMail delivers n messages "m<from>"... to sam's INBOX, a minute
// apart.
func AppendMail(t testing.TB, srv *memimap.Server, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("m%03d %s", i, strings.Repeat("lorem ipsum ", 12)),
			Date: time.Now().Add(time.Duration(i-1000) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// BigInbox delivers total messages "n0000"... to sam's INBOX, a minute
// apart, of which unread lack \Seen, mixed with the read ones: a folder
// far bigger than a page, whose real unread count no page shows.
func BigInbox(t testing.TB, srv *memimap.Server, total, unread int) {
	t.Helper()
	left := unread
	for i := range total {
		flags := []imap.Flag{imap.FlagSeen}
		if (i%5 < 3 || total-i <= left) && left > 0 {
			flags, left = nil, left-1
		}
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: fmt.Sprintf("n%04d", i),
			Date: time.Now().Add(time.Duration(i-total) * time.Minute), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, flags, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// OtherClient is a phone or webmail: logged in as sam with password pass,
// with INBOX selected, f changes the mailbox between two runs of unibox.
func OtherClient(t testing.TB, srv *memimap.Server, pass string, f func(c *imapclient.Client)) {
	t.Helper()
	c, err := imapclient.DialInsecure(srv.Addr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("sam", pass).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	f(c)
}

// AddThirdParty appends to the config at path an account, Third, on a
// third-party MCP mail server (the fake-mcp child, the mcp-mail-server
// profile), its password from UNIBOX_TEST_PW.
func AddThirdParty(t testing.TB, path string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "\n[[account]]\nname = \"Third\"\nkind = \"mcp\"\nprofile = \"mcp-mail-server\"\ncommand = [%q, \"fake-mcp\"]\npassword_env = \"UNIBOX_TEST_PW\"\nsecret_env = \"EMAIL_PASS\"\n", exe); err != nil {
		t.Fatal(err)
	}
}
