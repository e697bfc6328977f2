package teatest

import (
	"context"
	"net/mail"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/rulebook"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/model/rules"
	"unibox/ui/tui"
)

// The screener from the keyboard, with push on: new senders' mail, and a
// known sender's whose From fails DMARC, comes with no key pressed and
// waits ("4 to screen", not in the list, not in the unread count); W
// shows it; enter reads one and esc returns to the screener; y refuses
// the forged one; N asks, then screens out a whole domain (its mail
// leaves for Archive on the server); y lets a sender in (their mail joins
// the inbox); esc is the inbox again. Against the in-process server and a
// real Dovecot.
func TestScreenerFromTheKeyboard(t *testing.T) {
	t.Run("memimap", func(t *testing.T) {
		b := imaptest.NewMem(t, memimap.Options{})
		screenerKeys(t, b)
	})
	t.Run("dovecot", func(t *testing.T) { screenerKeys(t, imaptest.StartDovecot(t)) })
}

func screenerKeys(t *testing.T, b imaptest.Backend) {
	user, pass := b.NewUser(t)
	b.Seed(t, user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", To: "sam@x.org", Subject: "already here", Date: now.Add(-time.Hour), Body: "x"}.Bytes(), imap.FlagSeen)
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	book := rulebook.New(filepath.Join(dir, "rules.db"))
	t.Cleanup(func() { book.Close() }) // after the TUI's own cleanup, which may still read it
	cfg := &config.Config{Accounts: []config.Account{{Name: "Home", Kind: "imap", Host: b.Host(), Port: b.Port(), Security: "none",
		Username: user, Screener: true, From: &mail.Address{Address: "sam@x.org"}}}}
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(t), Store: accounts.Have(st),
		Rules: &accounts.RulesPart{Book: book, Current: func() ([]rules.Rule, error) { return nil, nil }},
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return pass, nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	tm, _ := run(t, uiAccounts(set), 110, 24, func(o *tui.Options) { o.Now, o.RefreshInterval = nil, 0 })
	waitFor(t, tm, "already here", "Home ● connected")

	seed := func(from, subject string, age time.Duration, headers map[string]string) {
		b.Seed(t, user, "INBOX", imaptest.Mail{From: from, To: "sam@x.org", Subject: subject, Date: now.Add(-age), Body: "x", Headers: headers}.Bytes())
	}
	seed("Stranger <stranger@y.example>", "hello from a stranger", 4*time.Minute, nil)
	seed("Spam <spam@z.example>", "buy now", 3*time.Minute, nil)
	seed("Spam <offers@z.example>", "buy more", 2*time.Minute, nil)
	seed("Ann <ann@example.org>", "forged ann", time.Minute, map[string]string{"Authentication-Results": "mx.x.org; dmarc=fail (p=none) header.from=example.org"})
	seed("Ann <ann@example.org>", "ann again", 0, nil)
	waitFor(t, tm, "ann again", "4 to screen (W)", "1 new in Home", "connected 1")

	tm.Send(key("W"))
	waitFor(t, tm, "screener · 4 messages", "fails DMARC: From may be forged", "buy more", "buy now", "hello from a stranger")
	tm.Send(key("enter")) // the newest: the forged one
	waitFor(t, tm, "Ann <ann@example.org>", "forged ann", "esc back")
	tm.Send(key("esc"))
	waitFor(t, tm, "screener · 4 messages")
	tm.Send(key("y"))
	waitFor(t, tm, "ann@example.org fails DMARC at your server: its From may be forged, so y does not let it in")
	tm.Send(key("j"))
	tm.Send(key("N"))
	waitFor(t, tm, "N again screens out every sender at @z.example")
	tm.Send(key("N"))
	waitFor(t, tm, "@z.example screened out (Home): 2 messages moved", "screener · 2 messages")
	tm.Send(key("y")) // the cursor stays on the second row: the stranger
	waitFor(t, tm, "stranger@y.example let in (Home)", "screener · 1 message")
	tm.Send(key("esc"))
	waitFor(t, tm, "hello from a stranger", "connected 2", "1 to screen (W)")
	if got := subjectsIn(t, b, user, "Archive"); !slices.Equal(slices.Sorted(slices.Values(got)), []string{"buy more", "buy now"}) {
		t.Fatalf("Archive holds %q; want the screened-out sender's mail", got)
	}
	if got := subjectsIn(t, b, user, "INBOX"); !slices.Equal(got, []string{"already here", "hello from a stranger", "forged ann", "ann again"}) {
		t.Fatalf("INBOX holds %q", got)
	}
}

// subjectsIn is the subjects in folder, as another client sees them.
func subjectsIn(t *testing.T, b imaptest.Backend, user, folder string) []string {
	t.Helper()
	c := b.Client(t, user)
	sel, err := c.Select(folder, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, m.Envelope.Subject)
	}
	return out
}
