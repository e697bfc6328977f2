// Package unibin builds the real unibox binary for tests whose accounts
// need `unibox serve-imap` children but do not test them. Those tests
// used to start the test binary itself as the child: under -race that
// is a race-built serve-imap in every child, several times slower, and
// a fifth of the race run was children parsing mail. The children here
// are built once per test process, without -race, exactly as users run
// them; serve-imap's own tests (accounts/serveimap) still run it under
// the race detector, in process and as race-built children.
package unibin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	once     sync.Once
	dir      string // the folder of the built binary
	built    string // its path, or "" when the build failed
	buildErr string
)

// Exe is the path of the real unibox binary, built on first use (the go
// command inherits the test's GOFLAGS and build cache: after the first
// build, a link). An Options with Exe set to it and ExeArgs nil runs
// `unibox serve-imap`.
func Exe(t testing.TB) string {
	t.Helper()
	path, err := Path()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Path is Exe where no test is at hand (a face's launch, see
// launch.ProviderExe).
func Path() (string, error) {
	once.Do(func() {
		d, err := os.MkdirTemp("", "unibox-unibin-")
		if err != nil {
			buildErr = err.Error()
			return
		}
		dir = d
		bin := filepath.Join(d, "unibox")
		if out, err := exec.Command("go", "build", "-o", bin, "unibox").CombinedOutput(); err != nil {
			buildErr = err.Error() + "\n" + string(out)
			return
		}
		built = bin
	})
	if built == "" {
		return "", fmt.Errorf("building unibox for the children: %s", buildErr)
	}
	return built, nil
}

// Cleanup removes the built binary: a TestMain calls it after the tests.
func Cleanup() {
	if dir != "" {
		os.RemoveAll(dir)
	}
}
