package send

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// No package of the sending pipeline imports imapwire, serve-imap's
// wire: what it needs of an account's server (the largest part, the
// largest message) reaches it through the account, from its kind's
// provider.Spec (provider.Limits; accounts.Sending.PartBytes), so an
// account of another kind is bounded by its own limits and the wire can
// change without the pipeline noticing. Test files count too.
func TestNoSendPackageImportsImapwire(t *testing.T) {
	const wire = "unibox/accounts/imapwire"
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == wire || strings.HasPrefix(p, wire+"/") {
				t.Errorf("accounts/send/%s imports %s: take the limit from the account's provider.Spec (provider.Limits)", filepath.ToSlash(path), p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("read only %d Go files under accounts/send: the walk missed the pipeline", checked)
	}
}
