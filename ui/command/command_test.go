package command_test

import (
	"bytes"
	"strings"
	"testing"

	"unibox/ui/command"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

func TestMain(m *testing.M) { facetest.Main(m) }

// Main picks the face the first argument names, as the binary does: the
// answers that need no account are whole here; every face's own run is
// tested in its package and, as the binary, in ui/binarytest.
func TestMainPicksTheFace(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stdout string // a line it must print
		stderr string
	}{
		{args: []string{"--version"}, stdout: "unibox " + command.Version + "\n"},
		{args: []string{"version"}, stdout: "unibox " + command.Version + "\n"},
		{args: []string{"--help"}, stdout: "  unibox mcp [--timeout 10s]  the hub as an MCP server on stdio, for agents\n"},
		{args: []string{"-h"}, stdout: "Usage:\n"},
		{args: []string{"list", "--bogus"}, code: launch.ExitUsage, stderr: "Usage of list:"},
		{args: []string{"status", "--bogus"}, code: launch.ExitUsage, stderr: "Usage of status:"},
		{args: []string{"sync", "--bogus"}, code: launch.ExitUsage, stderr: "Usage of sync:"},
		{args: []string{"mcp", "--bogus"}, code: launch.ExitUsage, stderr: "Usage of mcp:"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := command.Main(c.args, &stdout, &stderr)
			if code != c.code || !strings.Contains(stdout.String(), c.stdout) || !strings.Contains(stderr.String(), c.stderr) {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout.String(), stderr.String())
			}
		})
	}
}
