// Package unibin builds the real unibox binary for tests whose accounts
// need `unibox serve-imap` children but do not test them. Those tests
// used to start the test binary itself as the child: under -race that
// is a race-built serve-imap in every child, several times slower, and
// a fifth of the race run was children parsing mail. The children here
// are the binary users run, built without -race; serve-imap's own tests
// (accounts/serveimap) still run it under the race detector, in process
// and as race-built children.
package unibin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

var (
	once     sync.Once
	built    string // the binary's path, or "" when the build failed
	buildErr error
)

// Exe is the path of the real unibox binary, built on first use. An
// Options with Exe set to it and ExeArgs nil runs `unibox serve-imap`.
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
//
// Every test process of a run shares one binary, beside the go command's
// build cache: `go build -o` leaves a file whose build ID is current as
// it is, so only the first package to ask links it (2.4 s here; each
// package linked its own before), and the next run relinks only what
// changed. An flock keeps two packages from building it at once.
func Path() (string, error) {
	once.Do(func() { built, buildErr = build() })
	return built, buildErr
}

func build() (string, error) {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	cache := strings.TrimSpace(string(out))
	if err != nil || cache == "" || cache == "off" {
		return "", fmt.Errorf("building unibox for the children: no go build cache (%v)", err)
	}
	dir := filepath.Join(filepath.Dir(cache), "unibox-test-bin")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("building unibox for the children: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return "", fmt.Errorf("building unibox for the children: %w", err)
	}
	defer lock.Close() // and with it the lock
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return "", fmt.Errorf("building unibox for the children: %w", err)
	}
	bin := filepath.Join(dir, "unibox")
	if out, err := exec.Command("go", "build", "-o", bin, "unibox").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building unibox for the children: %w\n%s", err, out)
	}
	return bin, nil
}
