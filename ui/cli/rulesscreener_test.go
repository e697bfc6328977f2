package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"unibox/accounts/rulebook"
	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// `unibox rules screener` lists the person's decisions from rules.db
// (--all: the senders let in at the start too; --account: one account's),
// and `undo` forgets one: an address decided in two accounts needs
// --account, an unknown one exits 1, a forgotten one is gone from the
// list. Nothing dials: no config is read.
func TestRulesScreener(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	path, err := rulebook.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	book := rulebook.New(path)
	ctx := context.Background()
	at := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	work, home := rulebook.Key{Name: "Work", Host: "h", User: "u"}, rulebook.Key{Name: "Home", Host: "h", User: "v"}
	for _, d := range []rulebook.Decision{
		{Key: work, Who: "ann@x.org", Decision: rulebook.ScreenIn, By: rulebook.ByPerson, At: at},
		{Key: work, Who: "@spam.example", Decision: rulebook.ScreenOut, By: rulebook.ByPerson, At: at},
		{Key: work, Who: "old@x.org", Decision: rulebook.ScreenIn, By: rulebook.ByStart, At: at},
		{Key: home, Who: "ann@x.org", Decision: rulebook.ScreenOut, By: rulebook.ByPerson, At: at},
	} {
		if err := book.Screen(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	book.Close()

	out, code, errs := rulesCmd(t, "screener")
	if code != launch.ExitOK || strings.Count(out, "\n") != 3 || !strings.Contains(out, "Work\t@spam.example\tscreened out") ||
		!strings.Contains(out, "Home\tann@x.org\tscreened out") || strings.Contains(out, "old@x.org") {
		t.Fatalf("rules screener: exit %d\n%s%s", code, out, errs)
	}
	out, code, _ = rulesCmd(t, "screener", "--json", "--all", "--account", "Work")
	var got cli.ScreenerJSON
	if err := json.Unmarshal([]byte(out), &got); code != launch.ExitOK || err != nil || len(got.Decisions) != 3 {
		t.Fatalf("--json --all --account Work: exit %d, %v\n%s", code, err, out)
	}
	for _, d := range got.Decisions {
		if d.Account != "Work" || d.At == "" || (d.Sender == "old@x.org") != (d.By == "start") {
			t.Fatalf("decision %+v", d)
		}
	}

	if _, code, errs = rulesCmd(t, "screener", "undo", "Ann@X.org"); code != launch.ExitUsage || !strings.Contains(errs, "--account") {
		t.Fatalf("undo of an address decided in two accounts: exit %d, %s", code, errs)
	}
	if _, code, errs = rulesCmd(t, "screener", "undo", "nobody@x.org"); code != launch.ExitNone || !strings.Contains(errs, "no decision on nobody@x.org") {
		t.Fatalf("undo of an unknown sender: exit %d, %s", code, errs)
	}
	if _, code, errs = rulesCmd(t, "screener", "undo", "not an address"); code != launch.ExitUsage {
		t.Fatalf("undo of no address: exit %d, %s", code, errs)
	}
	if out, code, errs = rulesCmd(t, "screener", "undo", "--account", "Home", "Ann@X.org"); code != launch.ExitOK || !strings.Contains(out, "forgotten: ann@x.org in Home") {
		t.Fatalf("undo --account Home: exit %d\n%s%s", code, out, errs)
	}
	if out, code, errs = rulesCmd(t, "screener", "undo", "@SPAM.example"); code != launch.ExitOK || !strings.Contains(out, "forgotten: @spam.example in Work") {
		t.Fatalf("undo of a domain: exit %d\n%s%s", code, out, errs)
	}
	if out, _, _ = rulesCmd(t, "screener"); strings.TrimSpace(out) != "Work\tann@x.org\tlet in\t2026-12-07T09:00:00Z" {
		t.Fatalf("after the undos:\n%s", out)
	}
}

// With screener = "new_senders", `unibox list --json` lists what waits in
// the screener too, marked: screened, and why; the mail stored when the
// screener was first on is not; the text table marks it.
func TestListMarksScreenedMail(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	add := func(from, subject string) {
		raw := imaptest.Mail{From: from, To: "sam@example.com", Subject: subject, Date: time.Now(), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	add("ann@x.org", "before the screener")
	t.Setenv("UNIBOX_TEST_PW", "pw")
	path := facetest.Write(t, facetest.Resilience("1m")+facetest.IMAP("Work", srv.Port(),
		facetest.Env("UNIBOX_TEST_PW")+"\nfrom = \"sam@example.com\"\nscreener = \"new_senders\""))
	if _, code, errs := facetest.ListJSON(t, "--config", path); code != launch.ExitOK {
		t.Fatalf("list: exit %d, %s", code, errs)
	}
	add("stranger@y.example", "from a stranger")
	out, code, errs := facetest.ListJSON(t, "--config", path)
	if code != launch.ExitOK || len(out.Messages) != 2 {
		t.Fatalf("list: exit %d, %d messages, %s", code, len(out.Messages), errs)
	}
	for _, m := range out.Messages {
		if want := m.Subject == "from a stranger"; m.Screened != want || (m.ScreenReason == "new_sender") != want {
			t.Errorf("%q: screened %v, %q", m.Subject, m.Screened, m.ScreenReason)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := cli.List([]string{"--config", path, "--timeout", "15s"}, &stdout, &stderr); code != launch.ExitOK || !strings.Contains(stdout.String(), "[screened] from a stranger") {
		t.Fatalf("list: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}
