package accounts

import (
	"context"
	"errors"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/config"
	"unibox/accounts/rulebook"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model/rules"
)

// ruled is an account (on memimap or Dovecot) with a store, rules and
// their book.
type ruled struct {
	a    *Account
	mem  imaptest.Backend
	user string
	pass string
	dir  string
	rule []rules.Rule
	// screen: the account has screener = "new_senders" (and sam@x.org
	// for its own address).
	screen    bool
	screenOut string
}

func newRuled(t testing.TB, mem imaptest.Backend) *ruled {
	t.Helper()
	r := &ruled{mem: mem, dir: t.TempDir()}
	r.user, r.pass = mem.NewUser(t)
	if err := mem.Client(t, r.user).Create("Lists", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	r.a = r.open(t, "store.db")
	return r
}

// open is the account as a face opens it, on the store file name (a new
// name: a cache set aside) and the same rules.db.
func (r *ruled) open(t testing.TB, storeName string) *Account {
	t.Helper()
	st, err := store.Open(filepath.Join(r.dir, storeName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	book := rulebook.New(filepath.Join(r.dir, "data", "rules.db"))
	t.Cleanup(func() { book.Close() })
	ac := config.Account{Name: "Work", Kind: "imap", Host: r.mem.Host(), Port: r.mem.Port(), Security: "none", Username: r.user}
	if r.screen {
		ac.Screener, ac.ScreenOut, ac.From = true, r.screenOut, &mail.Address{Address: "sam@x.org"}
	}
	return openAccount(t, ac, Options{Store: Have(st),
		Rules: &RulesPart{Book: book, Current: func() ([]rules.Rule, error) { return r.rule, nil }},
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return r.pass, nil }
		}})
}

func (r *ruled) add(t *testing.T, from, subject string) {
	t.Helper()
	r.addWith(t, from, subject, nil)
}

func (r *ruled) addWith(t *testing.T, from, subject string, headers map[string]string) {
	t.Helper()
	r.mem.Seed(t, r.user, "INBOX", imaptest.Mail{From: from, To: "sam@x.org", Subject: subject, Date: time.Now(),
		MessageID: strings.ReplaceAll(subject, " ", ".") + "@x.org", Body: "x", Headers: headers}.Bytes())
}

var ruledFolders = []string{"INBOX", "Archive", "Trash", "Lists"}

// where is each subject's folder on the server, as another client sees
// it, with "+flagged" when it is.
func (r *ruled) where(t *testing.T) map[string]string {
	t.Helper()
	c := r.mem.Client(t, r.user)
	out := map[string]string{}
	for _, f := range ruledFolders {
		if _, err := c.Select(f, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
			t.Fatal(err)
		}
		var all imap.SeqSet
		all.AddRange(1, 0) // 1:*
		msgs, err := c.Fetch(all, &imap.FetchOptions{Envelope: true, Flags: true}).Collect()
		if err != nil {
			continue // an empty folder
		}
		for _, m := range msgs {
			place := f
			if slices.Contains(m.Flags, imap.FlagFlagged) {
				place += "+flagged"
			}
			out[m.Envelope.Subject] = place
		}
	}
	return out
}

// another is what another client (a phone) does: flags cleared, a
// message moved back to INBOX.
func (r *ruled) another(t *testing.T, folder, subject string, do func(*imapclient.Client, imap.UIDSet)) {
	t.Helper()
	c := r.mem.Client(t, r.user)
	if _, err := c.Select(folder, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	res, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: subject}}}, nil).Wait()
	if err != nil || len(res.AllUIDs()) != 1 {
		t.Fatalf("%q in %s: %v %v", subject, folder, res, err)
	}
	do(c, imap.UIDSetNum(res.AllUIDs()...))
}

func mustRule(t *testing.T, name string, a rules.Action, from, folder string) rules.Rule {
	t.Helper()
	p, err := rules.Compile(from)
	if err != nil {
		t.Fatal(err)
	}
	return rules.Rule{Name: name, Action: a, Folder: folder, Match: rules.Match{From: p}}
}

func ruleHistory(a *Account) []string {
	var out []string
	for _, e := range a.History(200) {
		if e.Kind == "rule" {
			out = append(out, e.Text)
		}
	}
	return out
}

// Rules act on mail that arrives after they are in force, once: the mail
// stored at the first pass is old and stays; new mail is moved, flagged
// or left as the first matching rule says; a cache set aside and rebuilt
// does not make it new again, and mail moved back to INBOX by hand is not
// ruled again.
func TestRulesActOnNewMailOnce(t *testing.T) {
	t.Run("memimap", func(t *testing.T) { rulesActOnce(t, imaptest.NewMem(t, memimap.Options{})) })
	t.Run("dovecot", func(t *testing.T) { rulesActOnce(t, imaptest.NewDovecot(t, "frank")) })
}

func rulesActOnce(t *testing.T, mem imaptest.Backend) {
	r := newRuled(t, mem)
	r.rule = []rules.Rule{
		mustRule(t, "news", rules.Move, "*@news.example", "Lists"),
		mustRule(t, "boss", rules.Flag, "boss@*", ""),
		mustRule(t, "all news", rules.Archive, "*@news.example", ""), // never reached: news matches first
		{Name: "lists", Action: rules.Archive, Match: rules.Match{ListID: mustPattern(t, "*.lists.example")}},
		{Name: "blaster", Action: rules.Trash, Match: rules.Match{HeaderName: "X-Mailer", Header: mustPattern(t, "blaster*")}},
	}
	ctx := t.Context()
	r.add(t, "letters@news.example", "old letter")
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	if got := r.where(t)["old letter"]; got != "INBOX" {
		t.Fatalf("old mail ruled at the first pass: %s", got)
	}

	r.add(t, "letters@news.example", "new letter")
	r.add(t, "boss@work.example", "see me")
	r.add(t, "friend@home.example", "hello")
	r.addWith(t, "someone@elsewhere.example", "list post", map[string]string{"List-Id": "Gophers =?utf-8?q?Li=C3=9Ft?= <gophers.lists.example>"})
	r.addWith(t, "bulk@elsewhere.example", "offer", map[string]string{"X-Mailer": "Blaster 3.1"})
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"old letter": "INBOX", "new letter": "Lists", "see me": "INBOX+flagged", "hello": "INBOX", "list post": "Archive", "offer": "Trash"}
	if got := r.where(t); !mapsEqual(got, want) {
		t.Fatalf("after new mail: %v, want %v\n%s", got, want, strings.Join(ruleHistory(r.a), "\n"))
	}
	hist := strings.Join(ruleHistory(r.a), "\n")
	for _, line := range []string{`rule news: moved to Lists: "new letter" from letters@news.example`, `rule boss: flagged "see me" from boss@work.example`} {
		if !strings.Contains(hist, line) {
			t.Errorf("history %q lacks %q", hist, line)
		}
	}
	page, _, err := r.a.Stored().Cached(ctx, "", 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range page.Messages {
		if m.Subject == "new letter" {
			t.Errorf("the store still shows the moved letter in INBOX")
		}
	}

	// The cache set aside: a new store, the same rules.db.
	again := r.open(t, "store2.db")
	r.another(t, "INBOX", "see me", func(c *imapclient.Client, uids imap.UIDSet) {
		if err := c.Store(uids, &imap.StoreFlags{Op: imap.StoreFlagsDel, Flags: []imap.Flag{imap.FlagFlagged}, Silent: true}, nil).Close(); err != nil {
			t.Fatal(err)
		}
	})
	if err := again.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	want["see me"] = "INBOX"
	if got := r.where(t); !mapsEqual(got, want) {
		t.Fatalf("a rebuilt cache ruled old mail again: %v, want %v", got, want)
	}
	// The letter moved back by hand comes to INBOX with a new uid.
	r.another(t, "Lists", "new letter", func(c *imapclient.Client, uids imap.UIDSet) {
		if _, err := c.Move(uids, "INBOX").Wait(); err != nil {
			t.Fatal(err)
		}
	})
	if err := again.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	want["new letter"] = "INBOX"
	if got := r.where(t); !mapsEqual(got, want) {
		t.Fatalf("mail moved back was ruled again: %v, want %v", got, want)
	}
	log, err := again.ruling.part.Book.Log(ctx, 10)
	if err != nil || len(log) != 4 {
		t.Fatalf("log %+v, %v", log, err)
	}
}

func mustPattern(t testing.TB, s string) rules.Pattern {
	t.Helper()
	p, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// An undo puts back what a rule did (moved back to INBOX, a flag
// cleared), says so in the log, and the rule never acts on that message
// again; an action undone already, or another account's, is refused.
func TestRuleUndo(t *testing.T) {
	r := newRuled(t, imaptest.NewMem(t, memimap.Options{}))
	r.rule = []rules.Rule{
		mustRule(t, "news", rules.Archive, "*@news.example", ""),
		mustRule(t, "boss", rules.Flag, "boss@*", ""),
	}
	ctx := t.Context()
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	r.add(t, "letters@news.example", "new letter")
	r.add(t, "boss@work.example", "see me")
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	if got, want := r.where(t), map[string]string{"new letter": "Archive", "see me": "INBOX+flagged"}; !mapsEqual(got, want) {
		t.Fatalf("ruled: %v, want %v", got, want)
	}
	book := r.a.ruling.part.Book
	log, err := book.Log(ctx, 10)
	if err != nil || len(log) != 2 {
		t.Fatalf("log %+v %v", log, err)
	}
	for _, act := range log {
		if err := r.a.UndoRule(ctx, act); err != nil {
			t.Fatalf("undo %s: %v", act.Rule, err)
		}
	}
	if err := r.a.Sync(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	if got, want := r.where(t), map[string]string{"new letter": "INBOX", "see me": "INBOX"}; !mapsEqual(got, want) {
		t.Fatalf("after undo and a sync: %v, want %v", got, want)
	}
	for _, act := range log {
		got, err := book.Get(ctx, act.ID)
		if err != nil || got.State != rulebook.Undone || !strings.HasPrefix(got.Note, "undone: ") {
			t.Errorf("%s after undo: %+v %v", act.Rule, got, err)
		}
		got.State = rulebook.Done // as a stale copy of the log would say
		if err := r.a.UndoRule(ctx, got); err == nil {
			t.Errorf("%s undone twice", act.Rule)
		}
	}
	other := log[0]
	other.Key.Name = "Home"
	if err := r.a.UndoRule(ctx, other); !errors.Is(err, ErrNotThisAccount) {
		t.Errorf("another account's action: %v", err)
	}
	if hist := strings.Join(ruleHistory(r.a), "\n"); !strings.Contains(hist, `rule news on "new letter" undone: moved back to INBOX`) {
		t.Errorf("history %q", hist)
	}
}
