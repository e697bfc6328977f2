package tui

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/notify"
)

// The UI has one clock, Options.Now: no file of the package reads the
// wall clock itself (New's default is the one mention of time.Now), nor
// the machine's zone instead of the clock's (Local).
func TestOneClock(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var uses, local []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && sel.Sel.Name == "Now" {
				uses = append(uses, fset.Position(sel.Pos()).String())
			}
			if sel.Sel.Name == "Local" {
				local = append(local, fset.Position(sel.Pos()).String())
			}
			return true
		})
	}
	if len(uses) != 1 || !strings.HasPrefix(uses[0], "root.go:") {
		t.Fatalf("time.Now is used at %v; want only New's default in root.go", uses)
	}
	if len(local) > 0 {
		t.Fatalf("the machine's zone is used at %v; want the clock's (Options.Now().Location())", local)
	}
}

// A run's window is a timer: a burst inside it waits for its end, however
// the clock of the screen is set (golden tests fix it), and the timer ends
// with the UI.
func TestNotifyWindowIsATimer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	row := func(uid uint32) model.Row {
		return model.Row{Message: model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uid},
			Subject: "new"}, Fresh: true}
	}
	const window = 200 * time.Millisecond
	n := notify.Notifier{Ctx: ctx, Tell: func(...tea.Msg) {}, Argv: []string{"true"}, Window: window, Timeout: 10 * time.Second}
	n, cmd := n.Arrived([]model.Row{row(1)})
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 || !n.Running {
		t.Fatalf("the first arrival did not start a run and its window: %T %v", cmd(), n.Running)
	}
	run, windowCmd := batch[0], batch[1]
	start := time.Now()
	if n, cmd = n.Update(run()); cmd != nil || n.Running {
		t.Fatal("the run's end started another with nothing pending")
	}
	if n, cmd = n.Arrived([]model.Row{row(1), row(2)}); cmd != nil || len(n.Pending) != 1 {
		t.Fatalf("a second burst inside the window ran at once (pending %d)", len(n.Pending))
	}
	msg := windowCmd()
	if _, ok := msg.(notify.FlushMsg); !ok || time.Since(start) < window {
		t.Fatalf("the window ended with %T after %s", msg, time.Since(start))
	}
	if n, cmd = n.Update(msg); cmd == nil || !n.Running || len(n.Pending) != 0 {
		t.Fatal("the window's end did not run what it held back")
	}
	cancel()
	if msg := cmd().(tea.BatchMsg)[1](); msg != nil {
		t.Fatalf("a window outlived the UI: %T", msg)
	}
}
