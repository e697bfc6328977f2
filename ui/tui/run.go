package tui

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"unibox/accounts"
	"unibox/accounts/atrest"
	"unibox/accounts/attach"
	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/model"
	"unibox/model/rules"
	"unibox/model/textsafe"
	"unibox/ui/launch"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/termprobe"
)

// Run is `unibox [--config FILE | --demo]`: the unified inbox in the
// terminal. usage is the whole program's, printed on a bad argument.
func Run(args []string, usage string, stdout, stderr io.Writer) int {
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
	env, err := launch.Open(*path, *useDemo, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return 2
	}
	if env == nil {
		return 1 // no config: the friendly message was printed
	}
	defer env.Close()
	if os.Getenv("NO_COLOR") != "" {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	if err := checkKeys(env.Config); err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return 2
	}
	var uiAccts []screen.Account
	for _, a := range env.Set.Accounts {
		uiAccts = append(uiAccts, a)
	}
	room, stopRoom := openMailroom(env, stderr)
	defer stopRoom()
	// The background body fetch and the store's own background work
	// begin once the first screen is drawn; the fetch ends before the
	// accounts close (defers run last first).
	stopBodies := env.Set.FetchBodies(accounts.BodyFetchOptions{Begin: env.Begun()})
	defer stopBodies()
	// The unified inbox at rest (no account has answered for a couple of
	// seconds) returns its free memory: a first sync of twenty accounts
	// left 10 MiB of free heap kept for good.
	rest := atrest.New(restAfter)
	defer rest.Stop()
	book, warning := env.Contacts(env.Set.Accounts)
	if warning != "" {
		fmt.Fprintln(stderr, "unibox: warning:", warning)
	}
	m, err := New(screen.Options{
		Accounts: uiAccts, Keys: env.Config.Keys, PageSize: env.Config.UI.PageSize,
		RefreshInterval: env.Config.UI.RefreshInterval.Duration, DateFormat: env.Config.UI.DateFormat,
		MarkReadOnOpen: env.Config.UI.MarkReadOnOpen, AfterAction: env.Config.UI.AfterAction, NotifyCmd: env.Config.UI.NotifyCmd, Title: true,
		Mailroom: room, OpenCmd: env.Config.UI.OpenCmd, DownloadDir: downloadDir(env.Config.UI.DownloadDir),
		FirstScreen: env.Begin, Activity: rest.Poke, NotifyQuiet: quietByRules(env.Rules),
		Contacts: book, Proposals: env.Proposals(),
	})
	if err != nil {
		fmt.Fprintf(stderr, "unibox: %s: %v\n", env.Config.Path, err)
		return 2
	}
	defer m.Close()
	restoreTitle := saveTitle(os.Stdout) // Bubble Tea writes to os.Stdout too
	p := tea.NewProgram(m, tea.WithAltScreen())
	hungUp := endOnHangup(p)
	_, err = p.Run()
	restoreTitle()
	if hungUp() {
		return 129 // 128 + SIGHUP, as a shell reports it; the defers clean up
	}
	if err != nil {
		fmt.Fprintln(stderr, "unibox:", err)
		return 1
	}
	if f := m.Farewell(); f != "" {
		fmt.Fprintln(stdout, "unibox:", textsafe.Line(f))
	}
	return 0
}

// restAfter is the TUI's pause before it returns its memory: longer than
// the gaps between a sync's steps and the body fetch's batches.
const restAfter = 2 * time.Second

// endOnHangup ends the program when its terminal goes away (SIGHUP: the
// window closed, the ssh link dropped). The signal's default action
// killed the process on the spot, so none of Run's clean-up ran and the
// private copies of the attachments it had opened stayed in the
// temporary folder. Nothing can be drawn any more: the program is
// killed, not asked to quit, and Run's defers do the rest. hungUp, once
// the program has ended, says whether that is why; it stops listening.
func endOnHangup(p *tea.Program) (hungUp func() bool) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP)
	var got atomic.Bool
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			got.Store(true)
			p.Kill()
		case <-done:
		}
	}()
	return func() bool {
		signal.Stop(sig)
		close(done)
		return got.Load()
	}
}

// openMailroom opens the Mailroom every sending face opens
// (launch.OpenMailroom) and starts carrying the outbox out, in the
// account layer, until stop. An outbox that cannot be opened costs only
// sending: the TUI reads mail without it, and says why.
func openMailroom(env *launch.Env, stderr io.Writer) (*screen.Mailroom, func()) {
	room, err := env.OpenMailroom(env.Set.Accounts, dispatch.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "unibox: warning: no sending this time:", err)
		return nil, func() {}
	}
	if room.Warning != "" {
		fmt.Fprintln(stderr, "unibox: warning:", room.Warning)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := room.Runner.Run(ctx); err != nil {
			fmt.Fprintln(stderr, "unibox: the outbox:", err)
		}
	}()
	return &screen.Mailroom{Box: room.Box, Runner: room.Runner, Drafting: room.Drafting,
			Editor: env.Config.Compose.Editor, SendDelay: env.Config.Compose.SendDelay.Duration,
			AbortUnmodified: env.Config.Compose.AbortUnmodified, CalendarAdd: env.Config.Calendar.AddCmd},
		func() { cancel(); <-done }
}

// downloadDir is [ui] download_dir, or else the XDG download folder.
func downloadDir(configured string) string {
	if configured != "" {
		return configured
	}
	home, _ := os.UserHomeDir()
	return attach.DefaultDir(os.Getenv, home)
}

// ambiguousWidthMode is the config's ui.ambiguous_width, "auto" when the
// config cannot be read (launch.Open reports why, right after).
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

// checkKeys reports a [keys] action the UI does not know, naming the file
// and line as every config error does.
func checkKeys(cfg *config.Config) error {
	known := map[string]bool{}
	for _, a := range screen.Actions() {
		known[a] = true
	}
	for action := range cfg.Keys {
		if !known[action] {
			return fmt.Errorf("%s:%d: keys.%s: unknown action (actions: %s)", cfg.Path, cfg.KeyLine(action), action, strings.Join(screen.Actions(), ", "))
		}
	}
	k := screen.DefaultKeyMap()
	if err := k.Rebind(cfg.Keys); err != nil {
		return fmt.Errorf("%s: [keys]: %w", cfg.Path, err)
	}
	for _, c := range clashes(k) {
		// The line that made the clash: the other action's rebinding, or
		// else the attachment action's own.
		action := c.Other
		if _, rebound := cfg.Keys[action]; !rebound {
			action = c.Action
		}
		return fmt.Errorf("%s:%d: keys.%s: %w", cfg.Path, cfg.KeyLine(action), action, c)
	}
	return nil
}

// quietByRules says whether a rule with notify = false matches m (the
// rules in force now; none for the demo).
func quietByRules(w *config.RulesWatch) func(model.Message) bool {
	if w == nil {
		return nil
	}
	return func(m model.Message) bool {
		list, _ := w.Current()
		for _, d := range rules.Decide(list, m.ID.Account, rules.MailOf(m, m.Headers), nil) {
			if d.Rule.Quiet {
				return true
			}
		}
		return false
	}
}
