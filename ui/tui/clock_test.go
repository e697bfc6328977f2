package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The UI has one clock, Options.Now: no file of ui/tui or its packages reads the
// wall clock itself (New's default is the one mention of time.Now), nor
// the machine's zone instead of the clock's (Local).
func TestOneClock(t *testing.T) {
	var files []string // the root's and every screen package's, as they were one package once
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "termprobe" {
			return fs.SkipDir // times the terminal's answer, not the mail: never one package with the UI
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
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
