package send

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// docPath is a Go file named by its path in the doc: "drafting/build.go"
// (from accounts/send) or "ui/tui/writing.go" (from the repository).
var docPath = regexp.MustCompile(`[\w.]+(?:/[\w.]+)+\.go\b`)

// Every file the pipeline's map names exists, looked for under
// accounts/send and then from the repository's root: a file moved (the
// TUI's composer went to ui/tui/compose) leaves no path behind that
// leads nowhere.
func TestDocPathsExist(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	paths := docPath.FindAllString(string(doc), -1)
	if len(paths) < 10 {
		t.Fatalf("found only %d paths in doc.go: the pattern missed the map", len(paths))
	}
	for _, p := range paths {
		if !exists(p) && !exists(filepath.Join("..", "..", p)) {
			t.Errorf("doc.go names %s, which is neither under accounts/send nor in the repository", p)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
