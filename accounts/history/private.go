package history

import (
	"os"
	"path/filepath"
	"strings"

	"unibox/accounts/private"
)

// MakePrivate takes group and other bits off dir and the history files in
// it (package private): they say which servers each account reached, when,
// and how it failed. NewFile makes them 0700 and 0600, but one that
// exists keeps its mode. The answer is a warning, "" when all was private.
func MakePrivate(dir string) string {
	paths := []string{dir}
	entries, _ := os.ReadDir(dir) // a folder not made yet holds nothing
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && (strings.HasSuffix(n, ".log") || strings.HasSuffix(n, ".log.1") || strings.HasSuffix(n, ".log.lock")) {
			paths = append(paths, filepath.Join(dir, n))
		}
	}
	if w := private.Tighten(paths...); w != "" {
		return "account history: " + w
	}
	return ""
}
