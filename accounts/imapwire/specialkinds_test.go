package imapwire

import (
	"go/ast"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// kindCallers are the calls whose arguments name a special-use folder:
// Mailer's Append and FindMessageID, special_folder's client and server
// halves, serve-imap's moves to a special folder.
var kindCallers = []string{"Append", "FindMessageID", "SpecialFolder", "specialFolder", "moveTo"}

// kindNames are the fields and variables that hold a kind: in.Special,
// model.Folder's SpecialUse, a kind or special variable.
var kindNames = []string{"special", "specialuse", "kind"}

// No Go code of accounts names a special-use folder's kind with a string
// of its own where a kind goes: a call's argument, a Special or
// SpecialUse field, a comparison with one, a map's key, a list's element,
// a case, or what a function called special... returns. Only the
// constants say them (model/special.go; imapwire's in tools.go are the
// same), so a rename is one edit. The
// word "archive" is also a tool (ToolArchive) and an action name: those
// are not kinds and are not looked at here. testservers are fakes; tests
// may spell the wire.
func TestNoBareSpecialKinds(t *testing.T) {
	walkAccounts(t, []string{"imapwire", "testservers"}, func(fset *token.FileSet, f *ast.File) {
		for _, lit := range kindLiterals(f) {
			t.Errorf("%s: the special-folder kind %s is a bare string: use its imapwire.Special constant (model.Special where the wire is not known)", fset.Position(lit.Pos()), lit.Value)
		}
	})
}

// The kinds are the wire, as the tool names are: each constant still
// spells what another client of serve-imap sends, and special_folders'
// answer is named by the same kinds.
func TestSpecialKindsAreTheWire(t *testing.T) {
	want := []string{"archive", "trash", "junk", "sent", "drafts"}
	if !slices.Equal(SpecialKinds, want) {
		t.Fatalf("SpecialKinds = %q, want %q: a rename changes serve-imap's wire", SpecialKinds, want)
	}
	typ := reflect.TypeFor[SpecialFoldersOut]()
	for field, kind := range map[string]string{"Archive": SpecialArchive, "Trash": SpecialTrash, "Sent": SpecialSent, "Drafts": SpecialDrafts} {
		f, ok := typ.FieldByName(field)
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); !ok || tag != kind {
			t.Errorf("special_folders answers its %s folder under %q, want the kind %q", field, tag, kind)
		}
	}
}

// kindLiterals are the string literals of f that spell a kind of
// SpecialKinds where a kind goes.
func kindLiterals(f *ast.File) []*ast.BasicLit {
	var out []*ast.BasicLit
	check := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && slices.Contains(SpecialKinds, s) {
				out = append(out, lit)
			}
		}
	}
	holdsKind := func(e ast.Expr) bool {
		return slices.ContainsFunc(kindNames, func(n string) bool { return strings.EqualFold(n, exprName(e)) })
	}
	inSpecial := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			inSpecial = strings.Contains(strings.ToLower(n.Name.Name), "special")
		case *ast.CallExpr:
			if slices.Contains(kindCallers, calleeName(n.Fun)) {
				for _, arg := range n.Args {
					check(arg)
				}
			}
		case *ast.KeyValueExpr:
			if holdsKind(n.Key) {
				check(n.Value)
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if holdsKind(lhs) && i < len(n.Rhs) {
					check(n.Rhs[i])
				}
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if holdsKind(n.X) {
					check(n.Y)
				}
				if holdsKind(n.Y) {
					check(n.X)
				}
			}
		case *ast.IndexExpr:
			check(n.Index)
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					// A map's key and value; a struct's field is an
					// identifier, looked at above (KeyValueExpr).
					if _, isField := kv.Key.(*ast.Ident); !isField {
						check(kv.Key)
						check(kv.Value)
					}
					continue
				}
				check(el)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				check(e)
			}
		case *ast.ReturnStmt:
			if inSpecial {
				for _, r := range n.Results {
					check(r)
				}
			}
		}
		return true
	})
	return out
}

// exprName is the name an expression is known by: x of x and x.y's y.
func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}
