// Package launch opens what every face of unibox runs on (the TUI, the
// script face and the agent face alike): the config file, or the demo,
// and the accounts it describes, with the same messages and exit codes.
package launch

import (
	"errors"
	"fmt"
	"io"
	"time"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/demo"
)

// Exit codes of every face.
const (
	ExitOK      = 0 // every account answered
	ExitNone    = 1 // no account answered
	ExitUsage   = 2 // bad arguments or config
	ExitPartial = 3 // some accounts failed: partial results were printed
)

// Env is everything a face runs on: the config, its accounts and, with
// --demo, the demo servers.
type Env struct {
	Config *config.Config
	Set    *accounts.Set
	demo   *demo.Demo
}

// Close closes every account (reaping its provider child) and the demo.
func (e *Env) Close() {
	e.Set.Close()
	if e.demo != nil {
		e.demo.Close()
	}
}

// Open loads the config at path (default: config.DefaultPath) or starts
// the demo, and opens the accounts; nothing connects yet. A missing config
// file returns nil, nil after printing how to start.
func Open(path string, useDemo bool, stderr io.Writer) (*Env, error) {
	e := &Env{}
	opts := accounts.Options{}
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
	set, err := accounts.Open(e.Config, opts)
	if err != nil {
		if e.demo != nil {
			e.demo.Close()
		}
		return nil, err
	}
	e.Set = set
	return e, nil
}

// OpenFace is Open for a script or agent face: a missing or bad config is
// a usage error (ExitUsage), with the same messages as the TUI.
func OpenFace(path string, useDemo bool, stderr io.Writer) (*Env, int) {
	e, err := Open(path, useDemo, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return nil, ExitUsage
	}
	if e == nil {
		return nil, ExitUsage
	}
	return e, ExitOK
}

const noConfig = `unibox: no config file at %s

To try unibox right now on built-in demo accounts (nothing leaves this machine):

    unibox --demo

To use your own accounts, copy config.example.toml to that path, describe
your accounts there (passwords come from password_cmd or password_env, never
from the file), and run unibox again.
`
