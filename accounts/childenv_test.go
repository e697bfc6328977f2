package accounts

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
)

// SSL_CERT_FILE and SSL_CERT_DIR reach the serve-imap child, and nothing
// else of ours does: a server whose CA is trusted only through
// SSL_CERT_FILE (no tls_ca_file) is reached, and the child's environment,
// read back from /proc, is its ChildEnv and those two, without the canary
// set beside them.
func TestChildGetsOnlyTheCertVariables(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc")
	}
	ca := imaptest.NewCA(t)
	mem := imaptest.NewMem(t, memimap.Options{TLS: ca.Server})
	user, pass := mem.NewUser(t)
	dir := t.TempDir()
	caFile := filepath.Join(dir, "roots.pem")
	if err := os.WriteFile(caFile, []byte(ca.PEM), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", caFile)
	t.Setenv("SSL_CERT_DIR", dir)
	t.Setenv("UNIBOX_LEAK_CANARY", "canary-env-7731")
	a := openAccount(t, config.Account{Name: "Self", Kind: "imap", Host: "127.0.0.1", Port: mem.Port(), Security: "tls", Username: user}, Options{
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return pass, nil }
		}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := a.List(ctx, ListOptions{}); err != nil {
		t.Fatalf("a server trusted through SSL_CERT_FILE: %v", err)
	}
	envs := childEnvs(t)
	if len(envs) == 0 {
		t.Fatal("no child process found")
	}
	for pid, env := range envs {
		// A race-built unibox gives its children GORACE without the exit
		// sleep (imapprovider's raceChildEnv): the build's, not the user's.
		env = slices.DeleteFunc(env, func(v string) bool { return strings.HasPrefix(v, "GORACE=") })
		want := []string{"SSL_CERT_FILE=" + caFile, "SSL_CERT_DIR=" + dir}
		if !slices.Equal(env, want) {
			t.Fatalf("child %d's environment: %q, want %q", pid, env, want)
		}
	}
}

// childEnvs is the environment of each live child of this process.
func childEnvs(t *testing.T) map[int][]string {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	out := map[int][]string{}
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ')'.
		_, rest, _ := strings.Cut(string(b[bytes.LastIndexByte(b, ')')+1:]), " ")
		var state string
		var ppid, pid int
		if _, err := fmt.Sscan(rest, &state, &ppid); err != nil || ppid != os.Getpid() || state == "Z" {
			continue
		}
		fmt.Sscan(filepath.Base(filepath.Dir(p)), &pid)
		env, err := os.ReadFile(filepath.Join(filepath.Dir(p), "environ"))
		if err != nil {
			t.Fatalf("child %d: %v", pid, err)
		}
		out[pid] = strings.Split(strings.TrimSuffix(string(env), "\x00"), "\x00")
	}
	return out
}
