package command

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/architecture.md names files and folders to read, and tests as
// package/TestName; every one of them exists, so the page cannot drift
// from the tree unseen.
func TestArchitectureNamesOnlyWhatExists(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`\b(?:accounts|conn|model|ui|teatest|docs)/[A-Za-z0-9_./-]*`).FindAllString(string(page), -1)
	if len(named) < 20 {
		t.Fatalf("the page names only %d paths: %v", len(named), named)
	}
	for _, p := range named {
		p = strings.TrimRight(p, ".,;:)")
		dir, name := filepath.Split(p)
		if isTestName(name) {
			if !declares(t, filepath.Join(root, dir), name) {
				t.Errorf("docs/architecture.md names %s: no func %s in %s", p, name, dir)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("docs/architecture.md names %s: %v", p, err)
		}
	}
}

func isTestName(name string) bool {
	return regexp.MustCompile(`^(Test|Fuzz|Benchmark)[A-Z]`).MatchString(name)
}

// declares says whether a Go file in dir declares func name.
func declares(t *testing.T, dir, name string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "\nfunc "+name+"(") {
			return true
		}
	}
	return false
}
