// Package launch opens what every face of unibox runs on (the TUI, the
// script face and the agent face alike): the config file, or the demo,
// and the accounts it describes, with the same messages and exit codes.
package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/demo"
	"unibox/accounts/history"
	"unibox/accounts/proposing"
	"unibox/accounts/rulebook"
	"unibox/accounts/send/outbox"
	"unibox/accounts/snooze"
	"unibox/accounts/store"
)

// Exit codes of every face.
const (
	ExitOK      = 0 // every account answered
	ExitNone    = 1 // no account answered
	ExitUsage   = 2 // bad arguments or config
	ExitPartial = 3 // some accounts failed: partial results were printed
)

// Env is everything a face runs on: the config, its accounts, the local
// store they remember their mail in and, with --demo, the demo servers.
type Env struct {
	Config   *config.Config
	Set      *accounts.Set
	Store    *store.Store // nil when it could not be opened (a warning said why)
	demo     *demo.Demo
	box      *outbox.Box // opened by Outbox
	demoData string      // the demo's outbox folder, removed by Close
	snooze   *snooze.Book
	rules    *rulebook.Book // nil: the demo, or no place for rules.db
	// Rules are the rules in force (nil for the demo), read again when
	// their file changes.
	Rules *config.RulesWatch
	// begun closes when the face's launch is over (Begin): the store's
	// background work waits for it.
	begun     chan struct{}
	beginOnce sync.Once
}

// Begin says the face's launch is over (the TUI's first screen is drawn;
// a script or agent face begins at once): the work that may wait starts
// now. Calling it again does nothing.
func (e *Env) Begin() { e.beginOnce.Do(func() { close(e.begun) }) }

// Begun closes at Begin.
func (e *Env) Begun() <-chan struct{} { return e.begun }

// Close closes every account (reaping its provider child), the store and
// the demo.
func (e *Env) Close() {
	e.Set.Close()
	if e.snooze != nil {
		e.snooze.Close()
	}
	if e.rules != nil {
		e.rules.Close()
	}
	if e.Store != nil {
		e.Store.Close()
	}
	if e.demo != nil {
		e.demo.Close()
	}
	if e.demoData != "" {
		os.RemoveAll(e.demoData)
	}
}

// StoreMode says how a face uses the local store.
type StoreMode int

const (
	StoreOpen     StoreMode = iota // open it, creating it when missing
	StoreExisting                  // open it only if it exists (list --cached)
)

// verifyDelay is when the store's file is read whole for damage: after
// the launch, in a face that runs that long.
const verifyDelay = 30 * time.Second

// ErrNoStore is a face that reads only the store, with no store yet.
var ErrNoStore = errors.New("no local store yet")

// openStore opens the store the accounts remember their mail in: in
// memory for the demo (it writes nothing to disk), else the user's cache
// file. A store that cannot be opened costs only the memory of mail: the
// face goes on without it, with a warning.
// off, with a nil store, says why it could not be opened.
func openStore(useDemo bool, mode StoreMode, hold <-chan struct{}, stderr io.Writer) (st *store.Store, off error, err error) {
	if useDemo {
		st, err = store.OpenMemory()
		return st, nil, err
	}
	path, err := store.DefaultPath()
	if err == nil && mode == StoreExisting {
		if _, serr := os.Stat(path); errors.Is(serr, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w at %s: run unibox or unibox list once while online", ErrNoStore, path)
		}
	}
	if err == nil {
		st, err = store.OpenHeld(path, hold)
	}
	if err != nil {
		fmt.Fprintln(stderr, "unibox: warning: mail is not remembered this time:", err)
		return nil, err, nil
	}
	if st.Warning != "" {
		fmt.Fprintln(stderr, "unibox: warning:", st.Warning)
	}
	// Reading the whole file waits until the launch is over.
	st.VerifyAfter(verifyDelay)
	return st, nil, nil
}

// openSnooze is the snooze schedule in $XDG_DATA_HOME/unibox (not the
// cache, which a reset may drop), opened on first need. Without a place
// for it, snooze is off (said when one is asked for); nothing else
// depends on it.
func openSnooze() (*snooze.Book, error) {
	path, err := snooze.DefaultPath()
	if err != nil {
		return nil, err
	}
	return snooze.NewBook(path), nil
}

// openRules reads the rules (a file that does not parse is a warning:
// no rules until it does) and names rules.db in $XDG_DATA_HOME/unibox,
// opened on first need. Without a place for it, no rule runs.
func (e *Env) openRules(stderr io.Writer) *accounts.RulesPart {
	e.Rules = config.WatchRules(e.Config)
	list, err := e.Rules.Current()
	if err != nil {
		fmt.Fprintln(stderr, "unibox: warning: no rules run until the file is fixed:", err)
	}
	path, err := rulebook.DefaultPath()
	if err != nil {
		if len(list) > 0 { // said only to whom it concerns
			fmt.Fprintln(stderr, "unibox: warning: no rules run:", err)
		}
		return nil
	}
	e.rules = rulebook.New(path)
	return &accounts.RulesPart{Book: e.rules, Current: e.Rules.Current}
}

// RuleBook is what the rules did (nil for the demo).
func (e *Env) RuleBook() *rulebook.Book { return e.rules }

// Proposals is where agents' rule proposals are made and answered (nil
// for the demo, or without a place for rules.db).
func (e *Env) Proposals() *proposing.Desk {
	if e.rules == nil || e.Rules == nil {
		return nil
	}
	return &proposing.Desk{Book: e.rules, Config: e.Config, Current: e.Rules.Current, Accts: e.Set.Accounts,
		PerHour: e.Config.Agent.MaxRuleProposalsPerHour}
}

// historyDir is the folder account histories are kept in, made if missing
// and found writable; else why not. A history that cannot be kept is a
// warning, never a reason not to run.
func historyDir() (string, error) {
	dir, err := history.DefaultDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	// A read-only mount stops even root, whom permission bits do not.
	if err := syscall.Access(dir, 2 /* W_OK */); err != nil {
		return "", &os.PathError{Op: "write", Path: dir, Err: err}
	}
	return dir, nil
}

// Open loads the config at path (default: config.DefaultPath) or starts
// the demo, and opens the accounts. A missing config file returns nil,
// nil after printing how to start. On a first launch (no store yet, or
// the demo's) every account starts connecting at once (firstLaunch);
// otherwise nothing connects yet.
func Open(path string, useDemo bool, stderr io.Writer) (*Env, error) {
	return open(path, useDemo, StoreOpen, true, stderr)
}

// OpenWith is Open with a say in how the store is opened; nothing
// connects yet.
func OpenWith(path string, useDemo bool, mode StoreMode, stderr io.Writer) (*Env, error) {
	return open(path, useDemo, mode, false, stderr)
}

// open is Open and OpenWith: early lets a first launch start the
// providers before the store is open.
func open(path string, useDemo bool, mode StoreMode, early bool, stderr io.Writer) (*Env, error) {
	e := &Env{begun: make(chan struct{})}
	opts := accounts.Options{}
	if ProviderExe != nil {
		exe, err := ProviderExe()
		if err != nil {
			return nil, err
		}
		opts.Exe = exe
	}
	if useDemo {
		d, err := demo.Start(time.Now(), demo.DefaultSchedule)
		if err != nil {
			return nil, err
		}
		e.demo, e.Config = d, d.Config()
		opts.Password = d.Password
	} else {
		if path == "" {
			path = config.DefaultPath()
		}
		cfg, err := config.Load(path)
		if errors.Is(err, config.ErrNotFound) {
			fmt.Fprintf(stderr, noConfig, path)
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		e.Config = cfg
	}
	for _, w := range e.Config.Warnings {
		fmt.Fprintln(stderr, "unibox: warning:", w)
	}
	opening := openingStore(useDemo, mode, e.begun, early && firstLaunch(useDemo), stderr)
	if !useDemo { // the demo writes nothing to disk
		if dir, herr := historyDir(); herr == nil {
			opts.History = accounts.Have(dir)
			if w := history.MakePrivate(dir); w != "" {
				fmt.Fprintln(stderr, "unibox: warning:", w)
			}
		} else {
			opts.History = accounts.Off[string](herr)
			fmt.Fprintln(stderr, "unibox: warning: no account history this time:", herr)
		}
	}
	if !useDemo {
		e.snooze, opts.Snooze.Off = openSnooze()
		opts.Snooze.Value = e.snooze
		opts.Rules = e.openRules(stderr)
	} else {
		opts.Snooze.Off = errors.New("the demo keeps no snooze schedule")
	}
	var err error
	if opening.early {
		// The providers start now; the store is given to the accounts
		// once it is open, before anyone uses them.
		if e.Set, err = accounts.Open(e.Config, opts); err == nil {
			e.Set.Connect()
		}
	}
	st, storeOff, serr := opening.wait(stderr)
	if err == nil {
		err = serr
	}
	if err == nil {
		if st != nil {
			st.ThreadBySubject(e.Config.UI.ThreadBySubject)
		}
		part := accounts.Part[*store.Store]{Value: st, Off: storeOff}
		if e.Set != nil {
			e.Set.UseStore(part)
		} else {
			opts.Store = part
			e.Set, err = accounts.Open(e.Config, opts)
		}
	}
	if err != nil {
		if e.Set != nil {
			e.Set.Close()
		}
		if e.snooze != nil {
			e.snooze.Close()
		}
		if e.rules != nil {
			e.rules.Close()
		}
		if st != nil {
			st.Close()
		}
		if e.demo != nil {
			e.demo.Close()
		}
		return nil, err
	}
	e.Store = st
	return e, nil
}

// OpenFace is Open for a script or agent face: a missing or bad config is
// a usage error (ExitUsage), with the same messages as the TUI.
func OpenFace(path string, useDemo bool, stderr io.Writer) (*Env, int) {
	return OpenFaceWith(path, useDemo, StoreOpen, stderr)
}

// OpenFaceWith is OpenFace with a say in how the store is opened; with
// StoreExisting and no store yet, it says so and returns ExitNone.
func OpenFaceWith(path string, useDemo bool, mode StoreMode, stderr io.Writer) (*Env, int) {
	e, err := OpenWith(path, useDemo, mode, stderr)
	if errors.Is(err, ErrNoStore) {
		fmt.Fprintln(stderr, "unibox:", err)
		return nil, ExitNone
	}
	if err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return nil, ExitUsage
	}
	if e == nil {
		return nil, ExitUsage
	}
	e.Begin() // no first screen to wait for
	return e, ExitOK
}

const noConfig = `unibox: no config file at %s

To try unibox right now on built-in demo accounts (nothing leaves this machine):

    unibox --demo

To use your own accounts, copy config.example.toml to that path, describe
your accounts there (passwords come from password_cmd or password_env, never
from the file), and run unibox again.
`

// ProviderExe, when set, says which binary runs as `serve-imap` for the
// IMAP accounts instead of this executable. Only the face tests set it
// (facetest.Main): to the real binary built without -race, since a
// race-built test binary as every account's child parsed mail several
// times slower and made a fifth of the race run.
var ProviderExe func() (string, error)
