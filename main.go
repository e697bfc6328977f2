// Command unibox triages mail from several accounts in one unified inbox.
package main

import (
	"fmt"
	"io"
	"os"

	"unibox/accounts/imapmcp"
)

const usage = `unibox - one unified inbox over several mail accounts

Usage:
  unibox [--config FILE]      open the unified inbox (TUI)
  unibox --demo               run on built-in demo accounts
  unibox --help | --version
  unibox serve-imap           the IMAP provider (an MCP server on stdio, run by unibox)

Not everything above exists yet; see README.md for what works today.
`

var version = "0.1.0-dev"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "serve-imap" {
		// The IMAP provider child: MCP on stdin/stdout. Its password
		// arrives in add_account over the pipe, never in argv or env.
		return imapmcp.Main(args[1:], os.Stdin, os.Stdout, stderr)
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		fmt.Fprintln(stdout, "unibox", version)
		return 0
	}
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprint(stderr, usage)
	return 2
}
