package accounts

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/unibin"

	"unibox/accounts/config"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/model"
)

// storedAccount is one account on an in-process server behind a proxy,
// remembering its mail in a store file of its own.
func storedAccount(t *testing.T, cacheBodies bool) (*Account, *imaptest.Mem, *store.Store) {
	t.Helper()
	return storedAccountOn(t, cacheBodies, memimap.Options{})
}

// storedAccountOn is storedAccount on a server of the given options.
func storedAccountOn(t *testing.T, cacheBodies bool, opts memimap.Options) (*Account, *imaptest.Mem, *store.Store) {
	t.Helper()
	keep := config.BodiesNone
	if cacheBodies {
		keep = config.BodiesAll
	}
	r := newStoredRig(t, config.Store{CacheBodies: config.Bodies{Keep: keep}, CacheBodiesMaxMB: 1, BodyFetchKBps: config.DefaultBodyFetchKBps}, opts)
	for i, s := range []string{"older", "newer"} {
		r.mem.Seed(t, r.user, "INBOX", imaptest.Mail{From: "Ann <ann@example.org>", Subject: s, Date: time.Now().Add(time.Duration(i) * time.Minute), Body: "the body of " + s}.Bytes())
	}
	return r.set.Accounts[0], r.mem, r.st
}

// storedRig is one account, "Work", on an in-process server behind a
// proxy, through the real serve-imap child, with a store file of its own.
type storedRig struct {
	set  *Set
	mem  *imaptest.Mem
	st   *store.Store
	path string // the store's file
	user string
	cfg  *config.Config
}

func newStoredRig(t *testing.T, sc config.Store, opts memimap.Options, mods ...func(*config.Config)) storedRig {
	t.Helper()
	mem := imaptest.NewMem(t, opts)
	user, _ := mem.NewUser(t)
	path := filepath.Join(t.TempDir(), "store.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: mem.Host(), Port: mem.Port(), Security: "none", Username: user}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	cfg.Resilience.BackoffBase = config.Duration{Duration: time.Minute}
	cfg.Resilience.BackoffCap = config.Duration{Duration: time.Minute}
	cfg.Store = sc
	for _, m := range mods {
		m(cfg)
	}
	r := storedRig{mem: mem, st: st, path: path, user: user, cfg: cfg}
	r.set = r.open(t, st)
	return r
}

// open opens the rig's account on st, closed at the test's end.
func (r storedRig) open(t *testing.T, st *store.Store) *Set {
	t.Helper()
	set, err := Open(r.cfg, Options{Exe: unibin.Exe(t),
		Store: Have(st), Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return r.user + "-pw", nil }
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	return set
}

// another is a second face on the rig's store file: a store handle and a
// set of its own, as another unibox process has.
func (r storedRig) another(t *testing.T) *Set {
	t.Helper()
	st, err := store.Open(r.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return r.open(t, st)
}

// Offline reading: with cache_bodies, a message opened while online opens
// offline from the store, saying so; one never opened, or any message
// without cache_bodies, fails with a message that says why.
func TestOfflineBodies(t *testing.T) {
	for _, tt := range []struct {
		name        string
		cacheBodies bool
		open        bool // opened while online
		want        string
	}{
		{"stored", true, true, ""},
		{"never opened", true, false, "not opened while online"},
		{"cache_bodies off", false, true, "cache_bodies is off"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, mem, _ := storedAccount(t, tt.cacheBodies)
			ctx := context.Background()
			page, err := a.List(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			id := page.Messages[0].ID
			if tt.open {
				if _, err := a.Get(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
			mem.Srv.Refuse()
			mem.Srv.DropAll()
			mem.Proxy().Drop()
			b, err := a.Get(ctx, id)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("offline get: %v, want an error saying %q", err, tt.want)
				}
				return
			}
			if err != nil || !strings.Contains(b.Text, "the body of newer") || len(b.Problems) == 0 ||
				!strings.Contains(b.Problems[len(b.Problems)-1], "shown from the local store") {
				t.Fatalf("offline get: %+v, %v", b, err)
			}
		})
	}
}

// Triage against the store: an action shows in the store at once; a
// refused one is taken back; a done one stays.
func TestTriageOnTheStore(t *testing.T) {
	a, mem, _ := storedAccount(t, false)
	ctx := context.Background()
	page, err := a.List(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored := func() []model.Message {
		p, _, err := a.Stored().Cached(ctx, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		return p.Messages
	}
	newer := page.Messages[0]
	res, err := a.Apply(ctx, model.Op{Action: model.ActSetSeen, Value: true}, "INBOX", newer.ID.UIDValidity, []model.Message{newer})
	if err != nil || res[0].Kind != model.ResultDone {
		t.Fatal(res, err)
	}
	if got := stored(); !got[0].Seen {
		t.Fatal("a done action is not in the store")
	}
	// The server is gone: the action fails before anything is sent and
	// the stored row is back as it was.
	mem.Srv.Refuse()
	mem.Srv.DropAll()
	mem.Proxy().Drop()
	if _, err := a.Apply(ctx, model.Op{Action: model.ActArchive}, "INBOX", newer.ID.UIDValidity, []model.Message{newer}); err == nil {
		t.Fatal("archive on a dead server succeeded")
	}
	if got := stored(); len(got) != 2 || got[0].ID != newer.ID || !got[0].Seen {
		t.Fatalf("after a refused archive the store has %+v", got)
	}
}

// Every kind of account is keyed by what identifies its mailbox: an MCP
// account by its server's command line and environment, hashed (never a
// word of them in the store).
func TestStoreKey(t *testing.T) {
	imapKey := storeKey(config.Account{Name: "Work", Kind: config.KindIMAP, Host: "imap.example.org", Port: 993, Username: "ann"})
	if want := (store.Key{Name: "Work", Host: "imap.example.org", User: "ann"}); imapKey != want {
		t.Errorf("imap: %+v, want %+v", imapKey, want)
	}
	mcp := func(env map[string]string, cmd ...string) store.Key {
		return storeKey(config.Account{Name: "Mail", Kind: config.KindMCP, Command: cmd, Env: env})
	}
	a := mcp(map[string]string{"EMAIL_USER": "ann", "TOKEN": "s3cret"}, "npx", "mcp-mail-server")
	if a != mcp(map[string]string{"TOKEN": "s3cret", "EMAIL_USER": "ann"}, "npx", "mcp-mail-server") {
		t.Error("the same server keyed two ways")
	}
	for _, other := range []store.Key{mcp(map[string]string{"EMAIL_USER": "bob", "TOKEN": "s3cret"}, "npx", "mcp-mail-server"),
		mcp(map[string]string{"EMAIL_USER": "ann", "TOKEN": "s3cret"}, "npx mcp-mail-server"), mcp(nil, "npx", "mcp-mail-server")} {
		if other == a {
			t.Errorf("two servers share the key %+v", a)
		}
	}
	if strings.Contains(fmt.Sprint(a), "s3cret") || strings.Contains(fmt.Sprint(a), "ann") || !strings.HasPrefix(a.Host, "mcp:") {
		t.Errorf("mcp key %+v", a)
	}
}
