// Package command is the unibox command line: it picks the face (TUI,
// script, agent, IMAP provider) the first argument names. main.go only
// calls Main, so tests run exactly what the binary runs: in process, and
// in the test binaries that stand in for unibox as a child (their
// TestMain hands a child's arguments to Main; see ui/facetest).
package command

import (
	"fmt"
	"io"
	"os"

	"unibox/accounts/serveimap"
	"unibox/ui/agent"
	"unibox/ui/cli"
	"unibox/ui/tui"
)

const usage = `unibox - one unified inbox over several mail accounts

Usage:
  unibox [--config FILE]      open the unified inbox (TUI)
  unibox --demo               run on built-in demo accounts (no config needed)
  unibox list [--json] [--account NAME]... [--folder NAME] [--limit N] [--unread] [--threads] [--cached] [--timeout 10s]
                              the unified inbox once, for scripts (exit 0 all
                              answered, 3 some failed, 1 none did, 2 usage);
                              --folder lists that folder instead ("Sent" too);
                              --threads one entry per conversation;
                              --cached prints the local store, dialling nothing
  unibox search [--json] [--limit N] [--rank] [--account NAME]... [--] QUERY
                              find mail in the local store, offline, newest
                              first (exit 0 found, 1 none, 3 some account or
                              folder asked for is not all stored, 2 usage);
                              QUERY: words, "phrases", from: to: cc: subject:
                              body: filename: account: folder: is:unread
                              is:flagged is:answered has:attachment before:
                              after: (YYYY-MM-DD) newer: older: (7d, 2w, 3m, 1y),
                              NOT or -word, OR, ( ); put -word after --
  unibox contacts [--json] [--limit N] [--account NAME]... [--] QUERY
                              complete a recipient: the addresses QUERY (the
                              start of an address, its domain or a word of a
                              name) matches, best first: those you wrote to,
                              then those that wrote to you, lists and robots
                              last; offline (exit 0 found, 1 none, 2 usage);
                              one "address<TAB>name" line each, or --json
  unibox status [--json] [--history] [--account NAME]... [--timeout 10s]
                              a health probe per account; --history prints
                              what each account went through instead
  unibox sync [--json] [--account NAME]... [--folder NAME]... [--timeout 10s]
                              bring every inbox (or the folders named) in the
                              local store up to date (only what changed), then exit
  unibox send --account NAME [--json] [--queue] [--timeout 5m] [--attach PATH]... [FILE|-]
                              send one RFC 5322 message (stdin without FILE),
                              at most once, and file its copy in Sent (exit 0
                              sent, 1 not sent, 3 may have been sent, 4 queued)
  unibox rules check [--json] validate the rules (rules.toml beside the config):
                              exit 0 valid, 1 not (file, line and key named)
  unibox mcp [--timeout 10s]  the hub as an MCP server on stdio, for agents
  unibox serve-imap           the IMAP provider: an MCP server on stdio, run by unibox
  unibox --help | --version

list, search, contacts, status, sync, send and mcp take --config FILE or --demo too.

The config file is $XDG_CONFIG_HOME/unibox/config.toml (see config.example.toml).
`

// Version is what --version prints (set at link time with
// -ldflags "-X unibox/ui/command.Version=...").
var Version = "0.1.0-dev"

// Main runs unibox with args (without the program name) and returns its
// exit code. The IMAP provider and the agent face speak MCP on the
// process's own stdin and stdout.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "serve-imap":
			// The IMAP provider child: MCP on stdin/stdout. Its password
			// arrives in add_account over the pipe, never in argv or env.
			return serveimap.Main(args[1:], os.Stdin, os.Stdout, stderr)
		case "list":
			return cli.List(args[1:], stdout, stderr)
		case "search":
			return cli.Search(args[1:], stdout, stderr)
		case "contacts":
			return cli.Contacts(args[1:], stdout, stderr)
		case "status":
			return cli.Status(args[1:], stdout, stderr)
		case "sync":
			return cli.Sync(args[1:], stdout, stderr)
		case "send":
			return cli.Send(args[1:], os.Stdin, stdout, stderr)
		case "rules":
			return cli.Rules(args[1:], stdout, stderr)
		case "mcp":
			return agent.Run(args[1:], stderr)
		case "--version", "-version", "version":
			fmt.Fprintln(stdout, "unibox", Version)
			return 0
		case "--help", "-h", "-help", "help":
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	return tui.Run(args, usage, stdout, stderr)
}
