package agent

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Agents draft, people send, and that is visible in the agent face's
// code: its Mailroom is launch's drafting-only room (OpenDrafting, no
// Runner), and nothing in ui/agent reaches the outbox another way (the
// Env's Box), puts an entry in it, or dispatches. Read from the source,
// so a later change that gives `unibox mcp` a way to send fails here
// before any agent can use it.
func TestAgentFaceCannotSend(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := map[string]string{
		"OpenMailroom": "a sending face's room",
		"Outbox":       "the Env's outbox, around the drafting-only room",
		"Runner":       "a dispatch runner",
		"Enqueue":      "an outbox entry",
		"Deliver":      "a delivery",
		"DeliverDue":   "a delivery",
		"Kick":         "the runner",
		"Decide":       "an outbox entry's next step",
	}
	fset := token.NewFileSet()
	drafting := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "unibox/accounts/send/dispatch" {
				t.Errorf("%s imports %s", fset.Position(imp.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if why, bad := forbidden[sel.Sel.Name]; bad {
				t.Errorf("%s: %s: the agent face reaches %s", fset.Position(sel.Pos()), sel.Sel.Name, why)
			}
			if sel.Sel.Name == "OpenDrafting" {
				drafting++
			}
			return true
		})
	}
	if drafting != 1 {
		t.Errorf("the agent face opens its room with OpenDrafting %d times, want once", drafting)
	}
}
