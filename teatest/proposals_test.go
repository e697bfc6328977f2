package teatest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/proposing"
	"unibox/accounts/rulebook"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/ui/tui"
)

// P from the keyboard: the header says how many rules agents proposed;
// P shows each with the agent's reason and what it would do to the mail
// stored now; y writes it into rules.toml; a rules file edited by hand
// after it was shown is not written over (the screen says so and reads
// it again), and y then writes; x rejects; esc is the list, with nothing
// left to review.
func TestProposalsFromTheKeyboard(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := b.NewUser(t)
	for _, m := range []imaptest.Mail{
		{From: "letters@news.example", Subject: "weekly letter"},
		{From: "Ann <ann@example.org>", Subject: "hello"},
	} {
		m.To, m.Date, m.Body = "sam@x.org", now.Add(-time.Hour), "x"
		b.Seed(t, user, "INBOX", m.Bytes(), imap.FlagSeen)
	}
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	book := rulebook.New(filepath.Join(dir, "rules.db"))
	t.Cleanup(func() { book.Close() }) // after the TUI's own cleanup, which may still read it
	cfg := &config.Config{Path: filepath.Join(dir, "config.toml"), Accounts: []config.Account{{Name: "Home", Kind: "imap", Host: b.Host(), Port: b.Port(), Security: "none", Username: user}}}
	watch := config.WatchRules(cfg)
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(t), Store: accounts.Have(st),
		Rules: &accounts.RulesPart{Book: book, Current: watch.Current},
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return pass, nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	desk := &proposing.Desk{Book: book, Config: cfg, Current: watch.Current, Accts: set.Accounts, PerHour: 20}
	for _, in := range []proposing.Input{
		{Name: "newsletters", From: "*@news.example", Action: "archive", Reason: "they pile up unread"},
		{Name: "flag ann", From: "ann@example.org", Action: "flag", Reason: "she matters"},
		{Name: "robots", From: "noreply@*", Action: "read", Reason: "noise"},
	} {
		if _, err := desk.Propose(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	tm, _ := run(t, uiAccounts(set), 110, 30, func(o *tui.Options) { o.Now, o.RefreshInterval, o.Proposals = nil, 0, desk })
	waitFor(t, tm, "hello", "3 rules to review (P)")

	tm.Send(key("P"))
	waitFor(t, tm, "rules proposed by agents · 3 to review", "newsletters · would act on 1 stored message", "Why, in the agent's words (not yours): they pile up unread",
		`from = "*@news.example"`, "Home · letters@news.example · weekly letter")
	tm.Send(key("y"))
	waitFor(t, tm, "rule «newsletters» accepted into the rules file", "2 to review")
	path := filepath.Join(dir, "rules.toml")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("# edited by hand\n")
	f.Close()
	tm.Send(key("y"))
	waitFor(t, tm, "the rules file changed since it was shown", "this is it read again; look before y")
	tm.Send(key("y"))
	waitFor(t, tm, "rule «flag ann» accepted into the rules file", "1 to review")
	tm.Send(key("x"))
	waitFor(t, tm, "rule «robots» rejected", "No rules wait for review")
	tm.Send(key("esc"))
	waitFor(t, tm, "weekly letter")

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); strings.Count(s, "[[rule]]") != 2 || !strings.Contains(s, "# edited by hand\n") || !strings.Contains(s, "# Its reason: they pile up unread\n") {
		t.Fatalf("rules.toml:\n%s", s)
	}
	if list, err := watch.Current(); err != nil || len(list) != 2 || list[0].Name != "newsletters" || list[1].Name != "flag ann" {
		t.Fatalf("rules in force %v, %v", list, err)
	}
	if n, _ := book.PendingProposals(t.Context()); n != 0 {
		t.Fatalf("%d still pending", n)
	}
}
