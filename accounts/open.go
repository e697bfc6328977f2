package accounts

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/config"
	"unibox/accounts/history"
	"unibox/accounts/imapprovider"
	"unibox/accounts/mcpprovider"
	"unibox/accounts/provider"
	"unibox/accounts/snooze"
	"unibox/accounts/store"
	"unibox/accounts/wake"
	"unibox/conn"
)

// Options say how to start providers.
type Options struct {
	// Exe runs `serve-imap` (default: this executable). Tests point it at
	// the re-executed test binary.
	Exe string
	// ExeArgs replace ["serve-imap"] (tests add their dispatch here).
	ExeArgs []string
	// ChildEnv is the whole environment of serve-imap children: explicit
	// and minimal, never a secret (the password goes over the pipe).
	ChildEnv []string
	// Password overrides how an account's password is fetched (the demo).
	Password func(config.Account) func(context.Context) (string, error)
	// Trace sees every status transition of every account (logging).
	Trace func(conn.Status)
	// Store is the local store every listing goes into (none: its Value
	// is nil, and Off says why when one was wanted but could not be
	// opened; every account's health says so, Health.Store).
	Store Part[*store.Store]
	// History is the folder of each account's history file ("": memory
	// only; Off says why when the folder cannot be made or written, which
	// Health.History says).
	History Part[string]
	// Snooze is the schedule of snoozed messages (nil: snooze is off; Off
	// says why).
	Snooze Part[*snooze.Book]
	// Rules are the person's rules and their book (nil: no rules run).
	Rules *RulesPart
	// SyncCheckEvery is how often a sync holds the stored uids against the
	// server's whole uid set though the counts agree (0: a day).
	SyncCheckEvery time.Duration
}

// Part is a part of unibox the accounts share (the store, the history
// folder, the snooze schedule): its Value when present, else its zero
// Value, and Off says why when it was wanted but is off. One value, so
// that a part and the reason it is missing travel together.
type Part[T any] struct {
	Value T
	Off   error
}

// Have is a part that is present.
func Have[T any](v T) Part[T] { return Part[T]{Value: v} }

// Off is a part that was wanted but is off, and why.
func Off[T any](why error) Part[T] { return Part[T]{Off: why} }

// Set is every configured account.
type Set struct {
	Accounts []*Account
	stopWake func() // ends the wake watcher and waits for it
}

// Open builds an Account per configured account. Nothing connects yet:
// each adapter dials on first use, so startup never waits on a server.
func Open(cfg *config.Config, o Options) (*Set, error) {
	if o.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find the unibox executable: %w", err)
		}
		o.Exe = exe
	}
	if o.ExeArgs == nil {
		o.ExeArgs = []string{"serve-imap"}
	}
	if o.ChildEnv == nil {
		o.ChildEnv = []string{}
	}
	s := &Set{}
	build := builders(o)
	for _, ac := range cfg.Accounts {
		kind := ac.Kind
		if kind == "" {
			kind = config.KindIMAP
		}
		b, ok := build[kind]
		if !ok {
			s.Close()
			return nil, fmt.Errorf("account %s: unknown kind %q", ac.Name, ac.Kind)
		}
		a, err := open(cfg, ac, b, o)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("account %s: %w", ac.Name, err)
		}
		s.Accounts = append(s.Accounts, a)
	}
	if o.Rules != nil {
		// A rule an account cannot carry out is refused now, in its
		// history, naming the rule (not failed on each message later).
		list, _ := o.Rules.Current()
		for _, a := range s.Accounts {
			a.rulesHere(list)
		}
	}
	s.watchWake()
	return s, nil
}

// Connect starts every account's provider now, in the background (see
// conn.Adapter.Start): the first calls join the connects in flight.
func (s *Set) Connect() {
	for _, a := range s.Accounts {
		a.adapter.Start()
	}
}

// UseStore gives every account the store, for a face that opened it
// beside the accounts (Options.Store left empty) so that their providers
// could start first. It must be called before the set is used: nothing
// the accounts run on their own (a connect, its provisioning, the wake
// watcher) reads the store.
func (s *Set) UseStore(p Part[*store.Store]) {
	for _, a := range s.Accounts {
		a.cache.st, a.cache.off = p.Value, p.Off
	}
}

// watchWake probes every account at once when the machine wakes from
// sleep, unibox resumes from a stop, or the wall clock jumps (see
// accounts/wake): connections that died meanwhile are found within a
// probe's time, not at the next probe tick or call.
func (s *Set) watchWake() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		wake.Watch(ctx, wake.DefaultInterval, wake.DefaultSlack, func(time.Duration) {
			for _, a := range s.Accounts {
				a.adapter.Wake()
			}
		})
	}()
	s.stopWake = func() { cancel(); <-done }
}

// builders make a provider.Spec per kind of account.
func builders(o Options) map[string]func(*config.Config, config.Account, provider.Password) (*provider.Spec, error) {
	return map[string]func(*config.Config, config.Account, provider.Password) (*provider.Spec, error){
		config.KindIMAP: func(cfg *config.Config, ac config.Account, pw provider.Password) (*provider.Spec, error) {
			return imapprovider.Build(cfg, ac, pw, imapprovider.Options{Exe: o.Exe, Args: o.ExeArgs, Env: o.ChildEnv})
		},
		config.KindMCP: func(_ *config.Config, ac config.Account, pw provider.Password) (*provider.Spec, error) {
			return mcpprovider.Build(ac, pw, mcpprovider.Options{})
		},
	}
}

// open builds one account: its kind's Spec, and a resilient connection
// made of it.
func open(cfg *config.Config, ac config.Account, build func(*config.Config, config.Account, provider.Password) (*provider.Spec, error), o Options) (*Account, error) {
	var password provider.Password = ac.Password
	if o.Password != nil {
		if p := o.Password(ac); p != nil {
			password = p
		}
	}
	spec, err := build(cfg, ac, password)
	if err != nil {
		return nil, err
	}
	hist, histOff := openHistory(ac.Name, spec.Redact, o.History.Value, o.History.Off)
	trace := func(st conn.Status) {
		stateEvent(hist, st)
		if o.Trace != nil {
			o.Trace(st)
		}
	}
	pushes := make(chan struct{}, 1)
	fl := newFollow(spec.PushURI)
	adapter := conn.New(conn.Options{
		OnNotify: func(uri string) { // coalesced: a listing reads every change at once
			pushEvent(hist, spec.PushFolder, uri)
			select {
			case fl.routes(spec.PushFolder, uri, pushes) <- struct{}{}:
			default:
			}
		},
		Account: ac.Name, Dial: spec.Dial, AfterConnect: fl.afterConnect(spec.AfterConnect), ReprovisionOnAuth: spec.ReprovisionOnAuth, Classify: spec.Classify,
		ClassifyConnect: spec.ClassifyConnect, Probe: spec.Probe, Redact: spec.Redact,
		Dials: cfg.Resilience.Dials(), Trace: trace, Client: &mcp.Implementation{Name: "unibox", Version: "1"},
	})
	return (&Account{name: ac.Name, kind: spec.Kind, adapter: adapter, ops: spec.Provider, redact: spec.Redact, learn: spec.Learn, notes: spec.Notes,
		cache: cache{st: o.Store.Value, off: o.Store.Off, key: storeKey(ac), bodies: bodyCap(cfg.Store), fetch: bodyPolicyOf(cfg.Store)}, pushes: pushes, follow: fl, push: spec.Push, hist: hist, histOff: histOff, syncing: make(chan struct{}, 1),
		checkEvery: cmp.Or(o.SyncCheckEvery, 24*time.Hour), sending: sendingOf(ac, cfg.Compose, spec),
		snoozing: snoozingOf(ac, o), ruling: rulingOf(ac, o)}).wire(), nil
}

// openHistory is an account's history, with a file in dir unless dir is
// "". History is a record for after the fact, never a reason not to run:
// a folder that cannot be made leaves it in memory only, and off says why
// (as does why, the launch's reason there is no dir).
func openHistory(account string, scrub func(string) string, dir string, why error) (*history.Log, string) {
	if dir == "" {
		return history.New(account, scrub, nil), off(why)
	}
	f, err := history.NewFile(dir, account, 0)
	if err != nil {
		return history.New(account, scrub, nil), off(err)
	}
	return history.New(account, scrub, f), ""
}

// off is why a part of unibox is off, as Health says it ("" for none).
func off(why error) string {
	if why == nil {
		return ""
	}
	return "off: " + why.Error()
}

// bodyCap is the [store] cap on bodies in bytes, 0 when they are not kept.
func bodyCap(s config.Store) int64 {
	if !s.CacheBodies.Stored() {
		return 0
	}
	return int64(s.CacheBodiesMaxMB) << 20
}

// Find returns the account named name.
func (s *Set) Find(name string) *Account {
	for _, a := range s.Accounts {
		if strings.EqualFold(a.name, name) {
			return a
		}
	}
	return nil
}

// Close closes every account concurrently (a wedged child cannot hold up
// the others) and waits for all children to be reaped.
func (s *Set) Close() {
	if s.stopWake != nil {
		s.stopWake()
	}
	var wg sync.WaitGroup
	for _, a := range s.Accounts {
		wg.Go(func() { a.Close() })
	}
	wg.Wait()
}
