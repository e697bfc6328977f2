package teatest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/demo"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/unibin"
	"unibox/model/textsafe"
	"unibox/ui/tui"
)

// openDemo starts the demo servers (no outage schedule) and opens its
// accounts through real provider children: this test binary re-executed
// as `unibox serve-imap`.
func openDemo(t testing.TB, at time.Time) (*demo.Demo, *accounts.Set) {
	t.Helper()
	d, err := demo.Start(at, demo.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := accounts.Open(d.Config(), accounts.Options{Exe: unibin.Exe(t), Password: d.Password})
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		set.Close()
		d.Close()
		if kids := imaptest.ChildPIDs(); len(kids) > 0 {
			t.Errorf("provider children left after quit: %v", kids)
		}
	})
	return d, set
}

func uiAccounts(set *accounts.Set) []tui.Account {
	var out []tui.Account
	for _, a := range set.Accounts {
		out = append(out, a)
	}
	return out
}

// The first screen, through three real provider children: every account's
// rows merged newest first, all badges connected.
func TestFirstLoadThroughRealProviders(t *testing.T) {
	_, set := openDemo(t, now)
	tm, _ := run(t, uiAccounts(set), 80, 24, nil)
	// The exact unread counts come after the rows (each folder's STATUS):
	// a screen taken at the rows alone still said ~8 (CI, once the
	// children ran faster than the race-built ones did), and later ~4 for
	// Personal, which the wait had left out: every account's is waited for.
	waitFor(t, tm, "3 of 3 accounts · 65 messages", "Work ● connected 8 ", "Personal ● connected 4 ", "Yahoo ● connected 10 ")
	check(t, final(t, tm))
}

// Opening a message fetches it through the provider, sanitised.
func TestOpenHostileMessageThroughRealProvider(t *testing.T) {
	_, set := openDemo(t, now)
	tm, _ := run(t, uiAccounts(set), 80, 24, nil)
	// The golden shows the account bar's exact counts (see above).
	waitFor(t, tm, "3 of 3 accounts · 65 messages", "Work ● connected 8 ", "Personal ● connected 4 ", "Yahoo ● connected 10 ")
	tm.Send(key("j"))
	tm.Send(key("j"))
	tm.Send(key("enter"))
	waitFor(t, tm, "plain,")
	screen := final(t, tm)
	if strings.ContainsAny(screen, "\x1b\x07\u202e") {
		t.Fatalf("escape or bidi bytes reached the screen: %q", screen)
	}
	check(t, screen)
}

// An account whose server goes away keeps its rows, marked stale, and the
// header says why; the others are untouched.
func TestAccountDownThenBack(t *testing.T) {
	d, set := openDemo(t, time.Now())
	tm, _ := run(t, uiAccounts(set), 100, 30, func(o *tui.Options) { o.Now = nil })
	waitFor(t, tm, "3 of 3 accounts · 65 messages")
	yahoo := d.Server("Yahoo")
	yahoo.Refuse()
	yahoo.DropAll()
	tm.Send(key("tab"))
	tm.Send(key("tab"))
	tm.Send(key("tab"))                                // focus Yahoo
	tm.Send(key("r"))                                  // refresh it now: the probe finds it down
	waitFor(t, tm, "[Yahoo ⏸ cooling down", "~ Yahoo") // its rows stay, marked stale
	if err := yahoo.Accept(); err != nil {
		t.Fatal(err)
	}
	tm.Send(key("r"))
	waitFor(t, tm, "Yahoo ● connected")
}

// End to end through a real provider child: the server carries out the
// MOVE and hangs up before answering. The UI reports the message archived
// (reconciled by reading), and the server holds it exactly once.
func TestArchiveDropAfterSendEndToEnd(t *testing.T) {
	faults := &memimap.Faults{}
	srv, err := memimap.Start(memimap.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.AddUser("sam", "pw", map[string]imap.MailboxAttr{"Archive": imap.MailboxAttrArchive}); err != nil {
		t.Fatal(err)
	}
	for i, s := range []string{"keep me", "archive me exactly once"} {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", To: "sam@example.com", Subject: s, Date: now.Add(-time.Duration(2-i) * time.Hour), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, []imap.Flag{imap.FlagSeen}, now); err != nil {
			t.Fatal(err)
		}
	}
	set := openOne(t, "Work", srv.Port())
	tm, _ := run(t, uiAccounts(set), 80, 24, nil)
	waitFor(t, tm, "1 of 1 account · 2 messages")
	faults.DropAfter("MOVE", 1)
	tm.Send(key("e"))
	waitFor(t, tm, "archived 1: Work 1")
	screen := final(t, tm)
	if strings.Contains(screen, "archive me exactly once") || !strings.Contains(screen, "keep me") {
		t.Fatalf("screen:\n%s", screen)
	}
	archive, err := set.Accounts[0].List(context.Background(), accounts.ListOptions{Folder: "Archive"})
	if err != nil || len(archive.Messages) != 1 || archive.Messages[0].Subject != "archive me exactly once" {
		t.Fatalf("archive holds %d messages (%v), want exactly 1", len(archive.Messages), err)
	}
	inbox, _ := set.Accounts[0].List(context.Background(), accounts.ListOptions{})
	if len(inbox.Messages) != 1 {
		t.Fatalf("INBOX holds %d", len(inbox.Messages))
	}
}

// The hostile corpus through a real provider child and the whole TUI: no
// panic, layout intact (every line fits), nothing unsafe on screen.
func TestHostileCorpusThroughRealProvider(t *testing.T) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.AddUser("sam", "pw", nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range imaptest.HostileCorpus() {
		if _, err := srv.Append("sam", "INBOX", m.Raw, nil, now.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	set := openOne(t, "Hostile", srv.Port())
	tm, _ := run(t, uiAccounts(set), 80, 24, nil)
	waitFor(t, tm, fmt.Sprintf("1 of 1 account · %d messages", len(imaptest.HostileCorpus())))
	screen := final(t, tm)
	for _, l := range strings.Split(screen, "\n") {
		if w := textsafe.Width(l); w > 80 {
			t.Fatalf("a line is %d columns wide: %q", w, l)
		}
		for _, r := range l {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
				t.Fatalf("unsafe %U on screen: %q", r, l)
			}
		}
	}
	check(t, screen)
}

// openOne opens one account, user sam/pw on an in-process server, through
// a real provider child.
func openOne(t *testing.T, name string, port int) *accounts.Set {
	t.Helper()
	cfg := &config.Config{Accounts: []config.Account{{Name: name, Kind: "imap", Host: "127.0.0.1", Port: port, Security: "none", Username: "sam"}}}
	set, err := accounts.Open(cfg, accounts.Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set
}
