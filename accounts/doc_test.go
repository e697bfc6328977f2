package accounts

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A file named bare in a package doc ("open.go", not "send/doc.go"), and
// a directory named as a list entry's or a phrase's "name/".
var (
	docFile = regexp.MustCompile(`(?:^|[^/\w.])(\w+\.go)\b`)
	docDir  = regexp.MustCompile(`(?:^|[^/\w.])(\w+)/`)
)

// The package doc is the map of accounts (issue 36 item 7): every
// non-test file of the package and every package directory beneath it is
// named there, and every file it names exists, so that a file added,
// renamed or removed without its line fails here. accounts/send's own doc
// names its children, by the same rule.
func TestDocNamesEveryFileAndPackage(t *testing.T) {
	for _, dir := range []string{".", "send"} {
		t.Run(dir, func(t *testing.T) {
			text := packageDoc(t, filepath.Join(dir, "doc.go"))
			doc := filepath.ToSlash(filepath.Join("accounts", dir, "doc.go"))
			files, dirs := docNames(text)
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var have []string
			for _, e := range entries {
				name := e.Name()
				switch {
				case e.IsDir() && name != "testdata" && !strings.HasPrefix(name, "."):
					if !slices.Contains(dirs, name) {
						t.Errorf("%s does not name the package %s/", doc, name)
					}
				case strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && name != "doc.go":
					have = append(have, name)
					if !slices.Contains(files, name) {
						t.Errorf("%s does not name its file %s", doc, name)
					}
				}
			}
			for _, f := range files {
				if !slices.Contains(have, f) {
					t.Errorf("%s names %s, which is not a file of the package", doc, f)
				}
			}
		})
	}
}

// packageDoc is the package comment of the Go file at path.
func packageDoc(t *testing.T, path string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatalf("%s has no package comment", path)
	}
	return f.Doc.Text()
}

// docNames are the files named bare in a package doc, and the directories
// named as "name/", each once.
func docNames(text string) (files, dirs []string) {
	for _, m := range docFile.FindAllStringSubmatch(text, -1) {
		if name := m[1]; name != "doc_test.go" && !slices.Contains(files, name) {
			files = append(files, name)
		}
	}
	for _, m := range docDir.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(dirs, m[1]) {
			dirs = append(dirs, m[1])
		}
	}
	return files, dirs
}
