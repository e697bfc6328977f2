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

// The walls between layers, checked on imports so that a crossing is a
// red test rather than a habit. Test files count too: they are the
// layer's code as much as the rest.
//   - No face imports the connection layer: what ui/ needs of conn (error
//     classes, TransferTime, Tail, ResultText) accounts re-exports
//     (accounts/faceconn.go), so conn can change under the account layer
//     without a face noticing.
//   - No package of the sending pipeline imports imapwire, serve-imap's
//     wire: what it needs of an account's server (the largest part, the
//     largest message) reaches it through the account, from its kind's
//     provider.Spec (provider.Limits; accounts.Sending.PartBytes), so an
//     account of another kind is bounded by its own limits and the wire
//     can change without the pipeline noticing.
func TestLayersKeepTheirWalls(t *testing.T) {
	for _, wall := range []struct {
		dir, forbidden, fix string
		least               int
	}{
		{"ui", "unibox/conn", "use what accounts re-exports (accounts/faceconn.go)", 100},
		{"accounts/send", "unibox/accounts/imapwire", "take the limit from the account's provider.Spec (provider.Limits)", 50},
	} {
		t.Run(wall.dir, func(t *testing.T) {
			fset := token.NewFileSet()
			checked := 0
			err := filepath.WalkDir(filepath.Join(root, wall.dir), func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
					return err
				}
				f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
				if err != nil {
					return err
				}
				checked++
				for _, imp := range f.Imports {
					if p, _ := strconv.Unquote(imp.Path.Value); p == wall.forbidden || strings.HasPrefix(p, wall.forbidden+"/") {
						rel, _ := filepath.Rel(root, path)
						t.Errorf("%s imports %s: %s", rel, p, wall.fix)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if checked < wall.least {
				t.Fatalf("read only %d Go files under %s/: the walk missed it", checked, wall.dir)
			}
		})
	}
}
