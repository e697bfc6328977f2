package agent

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"unibox/accounts"
	"unibox/ui/launch"
)

// Run is `unibox mcp`: the hub as an MCP server on stdio for agents.
// Startup does not wait for any account: each connects on first use.
func Run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "config file")
	useDemo := fs.Bool("demo", false, "use the built-in demo accounts")
	timeout := fs.Duration("timeout", 10*time.Second, "deadline per account per tool call")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: unibox mcp [--config FILE | --demo] [--timeout 10s]")
		return launch.ExitUsage
	}
	env, code := launch.OpenFace(*path, *useDemo, stderr)
	if env == nil {
		return code
	}
	defer env.Close()
	// Bodies are fetched in the background while the server runs (there
	// is no first screen to wait for); this ends before the accounts close.
	stopBodies := env.Set.FetchBodies(accounts.BodyFetchOptions{})
	defer stopBodies()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	// stdout belongs to MCP: nothing else may write there.
	hub := New(env.Set, *timeout)
	hub.Refresh = env.Config.UI.RefreshInterval.Duration
	book, warning := env.Contacts(env.Set.Accounts)
	if warning != "" {
		fmt.Fprintln(stderr, "unibox mcp:", warning)
	}
	hub.Contacts = book
	hub.Proposals = env.Proposals()
	// Agents draft into the same drafts as the TUI; without them the
	// drafting tools say so, and everything else still works.
	// Their room is the drafting side only (launch.OpenDrafting): no
	// dispatch.Runner, so nothing this face holds sends.
	if room, err := env.OpenDrafting(); err != nil {
		fmt.Fprintln(stderr, "unibox mcp: drafting is off:", err)
	} else {
		if room.Warning != "" {
			fmt.Fprintln(stderr, "unibox mcp:", room.Warning)
		}
		hub.Drafts = room.Drafting
	}
	if err := hub.Serve(ctx, os.Stdin, os.Stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "unibox mcp:", err)
		return 1
	}
	return launch.ExitOK
}
