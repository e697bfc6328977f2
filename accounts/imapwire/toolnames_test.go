package imapwire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// toolCallers are the calls whose argument names a tool or the operation
// it is (the account layer labels its errors with the tool's name).
var toolCallers = []string{"Call", "CallTool", "checkInputs", "checkValidity", "mailer", "Unsupported", "failure"}

// toolFields are the fields of a composite literal that hold a tool's
// name: mcp.Tool's Name, conn.Request's Tool, conn.Error's Op.
var toolFields = []string{"Name", "Tool", "Op"}

// No Go code of accounts names a serve-imap tool with a string of its
// own where a tool name goes: in a call, a tool or error literal, or a
// variable called tool. Only the constants (tools.go) say the names, so
// a rename is one edit and a compile error wherever it is missed.
// mcpprovider maps other servers' tools (names that only look alike) and
// testservers are fakes: both are left out; tests may spell the wire.
func TestNoBareToolNames(t *testing.T) {
	walkAccounts(t, []string{"imapwire", "mcpprovider", "testservers"}, func(fset *token.FileSet, f *ast.File) {
		for _, lit := range toolNameLiterals(f) {
			t.Errorf("%s: the tool name %s is a bare string: use its imapwire.Tool constant", fset.Position(lit.Pos()), lit.Value)
		}
	})
}

// walkAccounts parses every non-test Go file of accounts outside the
// directories named skip and hands it to check; it fails when the walk
// read too few files to have seen the tree.
func walkAccounts(t *testing.T, skip []string, check func(*token.FileSet, *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && slices.Contains(skip, d.Name()):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		check(fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read only %d files of accounts: the walk missed the tree", files)
	}
}

// toolNameLiterals are the string literals of f that spell a tool of
// Tools where a tool name goes.
func toolNameLiterals(f *ast.File) []*ast.BasicLit {
	var out []*ast.BasicLit
	check := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(Tools, s) {
				out = append(out, lit)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if slices.Contains(toolCallers, calleeName(n.Fun)) {
				for _, arg := range n.Args {
					check(arg)
				}
			}
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && slices.Contains(toolFields, k.Name) {
				check(n.Value)
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && strings.EqualFold(id.Name, "tool") && i < len(n.Rhs) {
					check(n.Rhs[i])
				}
			}
		}
		return true
	})
	return out
}

// calleeName is the name a call is made by: f of f(...) and x.f(...).
func calleeName(fun ast.Expr) string {
	switch fun := fun.(type) {
	case *ast.Ident:
		return fun.Name
	case *ast.SelectorExpr:
		return fun.Sel.Name
	}
	return ""
}
