// Command unibox triages mail from several accounts in one unified inbox.
// Everything it does is in ui/command, which tests run as it is.
package main

import (
	"os"

	"unibox/ui/command"
)

func main() { os.Exit(command.Main(os.Args[1:], os.Stdout, os.Stderr)) }
