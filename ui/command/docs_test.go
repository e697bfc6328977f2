package command

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The docs cannot drift from the code: these fail when a flag or a
// package is added without saying so where a newcomer looks first.

// root is the module's root: this package is ui/command.
const root = "../.."

// Every flag a face accepts is in the usage, on that face's lines (or,
// for --config and --demo, in the sentence that gives them to all).
func TestUsageNamesEveryFlag(t *testing.T) {
	shared := strings.Contains(usage, "take --config FILE or --demo too")
	for _, face := range []string{"list", "search", "contacts", "status", "sync", "send", "mcp"} {
		var stdout, stderr bytes.Buffer
		Main([]string{face, "-h"}, &stdout, &stderr)
		flags := flagNames(stderr.String())
		if len(flags) == 0 {
			t.Fatalf("%s -h lists no flags:\n%s", face, stderr.String())
		}
		lines := usageOf(face)
		for _, f := range flags {
			if shared && (f == "config" || f == "demo") {
				continue
			}
			if !strings.Contains(lines, "--"+f) {
				t.Errorf("the usage's %s lines miss --%s:\n%s", face, f, lines)
			}
		}
	}
	var stdout, stderr bytes.Buffer
	Main([]string{"-h-unknown"}, &stdout, &stderr) // the TUI's flag set prints its defaults
	for _, f := range flagNames(stderr.String()) {
		if !strings.Contains(usage, "unibox --"+f) && !strings.Contains(usage, "unibox [--"+f) {
			t.Errorf("the usage misses the TUI's --%s", f)
		}
	}
}

// flagNames reads the names from a flag set's PrintDefaults.
func flagNames(defaults string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  -([\w-]+)`).FindAllStringSubmatch(defaults, -1) {
		names = append(names, m[1])
	}
	return names
}

// usageOf is the usage's lines for face: its own line and the lines that
// continue it, up to the next command.
func usageOf(face string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(usage, "\n") {
		switch {
		case strings.HasPrefix(l, "  unibox "+face+" ") || l == "  unibox "+face:
			in = true
		case strings.HasPrefix(l, "  unibox "), l == "":
			in = false
		}
		if in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// README's Layout names every directory that holds Go code (tests aside),
// by its place in the tree, and names none that does not exist.
func TestReadmeLayoutIsTheTree(t *testing.T) {
	listed := layoutOf(t, filepath.Join(root, "README.md"))
	var code []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if rel != "." && !slices.Contains(code, rel+"/") {
				code = append(code, filepath.ToSlash(rel)+"/")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range code {
		if !slices.Contains(listed, dir) {
			t.Errorf("README's Layout misses %s", dir)
		}
	}
	for _, dir := range listed {
		if !strings.HasSuffix(dir, "/") {
			if _, err := os.Stat(filepath.Join(root, dir)); err != nil {
				t.Errorf("README's Layout names %s, which does not exist", dir)
			}
			continue
		}
		if st, err := os.Stat(filepath.Join(root, dir)); err != nil || !st.IsDir() {
			t.Errorf("README's Layout names %s, which does not exist", dir)
		}
	}
}

// layoutOf reads the tree in README's "## Layout" section: each entry a
// name at an indent of 4 + 2 per level, its path made from the entries
// above it.
func layoutOf(t *testing.T, readme string) []string {
	f, err := os.Open(readme)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entry := regexp.MustCompile(`^( {4,})([\w.-]+/?)(\s|$)`)
	var paths, stack []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "## ") {
			in = l == "## Layout"
			continue
		}
		m := entry.FindStringSubmatch(l)
		if !in || m == nil {
			continue
		}
		depth := (len(m[1]) - 4) / 2
		if (len(m[1])-4)%2 != 0 || depth > len(stack) {
			continue // a description's continuation line
		}
		stack = append(stack[:depth], m[2])
		paths = append(paths, strings.Join(stack, ""))
	}
	if len(paths) == 0 {
		t.Fatalf("%s has no Layout section", readme)
	}
	return paths
}
