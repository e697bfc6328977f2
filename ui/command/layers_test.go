package command

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// No face imports the connection layer: what ui/ needs of conn (error
// classes, TransferTime, Tail, ResultText) accounts re-exports, so conn
// can change under the account layer without a face noticing. Test files
// count too: they are faces' code as much as the rest.
func TestNoFaceImportsConn(t *testing.T) {
	ui := filepath.Join(root, "ui")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(ui, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "unibox/conn" || strings.HasPrefix(p, "unibox/conn/") {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s imports %s: use what accounts re-exports (accounts/faceconn.go)", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("read only %d Go files under ui/: the walk missed the faces", checked)
	}
}
