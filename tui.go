package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/demo"
	"unibox/model/textsafe"
	"unibox/ui"
	"unibox/ui/termprobe"
)

// runTUI opens the unified inbox on a config file or the demo.
func runTUI(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("unibox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "config file (default $XDG_CONFIG_HOME/unibox/config.toml)")
	useDemo := fs.Bool("demo", false, "run on built-in demo accounts")
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unibox: unexpected argument %q\n\n%s", fs.Arg(0), usage)
		return 2
	}
	// Ask the terminal how wide it draws ambiguous-width characters before
	// anything is measured or started: this may re-execute unibox so that
	// every library measures as the terminal draws.
	termprobe.Settle(ambiguousWidthMode(*path, *useDemo))
	textsafe.SetAmbiguousWide(termprobe.AmbiguousWide())
	env, err := openEnv(*path, *useDemo, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return 2
	}
	if env == nil {
		return 1 // no config: the friendly message was printed
	}
	defer env.close()
	if os.Getenv("NO_COLOR") != "" {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	if err := checkKeys(env.cfg); err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return 2
	}
	var uiAccts []ui.Account
	for _, a := range env.set.Accounts {
		uiAccts = append(uiAccts, a)
	}
	m, err := ui.New(ui.Options{
		Accounts: uiAccts, Keys: env.cfg.Keys, PageSize: env.cfg.UI.PageSize,
		RefreshInterval: env.cfg.UI.RefreshInterval.Duration, DateFormat: env.cfg.UI.DateFormat,
		MarkReadOnOpen: env.cfg.UI.MarkReadOnOpen,
	})
	if err != nil {
		fmt.Fprintf(stderr, "unibox: %s: %v\n", env.cfg.Path, err)
		return 2
	}
	defer m.Close()
	if _, err := tea.NewProgram(m, tea.WithAltScreen()).Run(); err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return 1
	}
	return 0
}

// ambiguousWidthMode is the config's ui.ambiguous_width, "auto" when the
// config cannot be read (openEnv reports why, right after).
func ambiguousWidthMode(path string, useDemo bool) string {
	if useDemo {
		return "auto"
	}
	if path == "" {
		path = config.DefaultPath()
	}
	if cfg, err := config.Load(path); err == nil {
		return cfg.UI.AmbiguousWidth
	}
	return "auto"
}

// env is everything a face runs on: the config, its accounts and, with
// --demo, the demo servers.
type env struct {
	cfg  *config.Config
	set  *accounts.Set
	demo *demo.Demo
}

func (e *env) close() {
	e.set.Close() // reaps every provider child
	if e.demo != nil {
		e.demo.Close()
	}
}

// openEnv loads the config (or starts the demo) and opens the accounts.
// A missing config file returns nil after printing how to start.
func openEnv(path string, useDemo bool, stderr io.Writer) (*env, error) {
	e := &env{}
	opts := accounts.Options{}
	if useDemo {
		d, err := demo.Start(time.Now(), demo.DefaultSchedule)
		if err != nil {
			return nil, err
		}
		e.demo, e.cfg = d, d.Config()
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
		e.cfg = cfg
	}
	for _, w := range e.cfg.Warnings {
		fmt.Fprintln(stderr, "unibox: warning:", w)
	}
	set, err := accounts.Open(e.cfg, opts)
	if err != nil {
		if e.demo != nil {
			e.demo.Close()
		}
		return nil, err
	}
	e.set = set
	return e, nil
}

const noConfig = `unibox: no config file at %s

To try unibox right now on built-in demo accounts (nothing leaves this machine):

    unibox --demo

To use your own accounts, copy config.example.toml to that path, describe
your accounts there (passwords come from password_cmd or password_env, never
from the file), and run unibox again.
`

// checkKeys reports a [keys] action the UI does not know, naming the file
// and line as every config error does.
func checkKeys(cfg *config.Config) error {
	known := map[string]bool{}
	for _, a := range ui.Actions() {
		known[a] = true
	}
	for action := range cfg.Keys {
		if !known[action] {
			return fmt.Errorf("%s:%d: keys.%s: unknown action (actions: %s)", cfg.Path, cfg.KeyLine(action), action, strings.Join(ui.Actions(), ", "))
		}
	}
	return nil
}

// openFaceEnv opens the environment for a script face: a missing or bad
// config is a usage error (exit 2), with the same messages as the TUI.
func openFaceEnv(path string, useDemo bool, stderr io.Writer) (*env, int) {
	e, err := openEnv(path, useDemo, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return nil, exitUsage
	}
	if e == nil {
		return nil, exitUsage
	}
	return e, exitOK
}
