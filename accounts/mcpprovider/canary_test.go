package mcpprovider

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"unibox/accounts/config"
)

// Two accounts with different canary secrets run side by side. Each child
// holds its own canary, in its own secret variable, and nothing else of
// ours: not the other's canary, not the parent's environment (a sentinel
// set in the test process must be absent), and no canary in argv.
func TestCanarySecretsStayWithTheirChild(t *testing.T) {
	const canaryA, canaryB = "canary-A-7f3a91", "canary-B-c04e2d"
	t.Setenv("UNIBOX_TP_SENTINEL", "parent-only")
	t.Setenv("UNIBOX_TP_PW_A", canaryA) // password_env reads it from our environment
	a := newWorldPw(t, "email-mcp", func(ac *config.Account) { ac.PasswordEnv = "UNIBOX_TP_PW_A" }, false)
	b := newWorldPw(t, "mcp-mail-server", func(ac *config.Account) {
		ac.PasswordEnv, ac.PasswordCmd, ac.SecretEnv = "", "printf '%s\\n' "+canaryB, "EMAIL_PASS"
	}, false)
	for _, w := range []*world{a, b} {
		if err := w.a.EnsureConnected(t.Context()); err != nil {
			t.Fatalf("%s: %v", w.ac.Name, err)
		}
	}
	cases := []struct {
		w              *world
		secretVar, own string
		other          string
	}{
		{a, "MCP_EMAIL_PASSWORD", canaryA, canaryB},
		{b, "EMAIL_PASS", canaryB, canaryA},
	}
	for _, c := range cases {
		pid := c.w.pids()[0]
		env := procEnv(t, pid)
		if env[c.secretVar] != c.own {
			t.Errorf("%s: %s=%q, want its own canary", c.w.ac.Name, c.secretVar, env[c.secretVar])
		}
		want := []string{"HOME", "PATH", c.secretVar}
		want = append(want, slices.Collect(maps.Keys(c.w.ac.Env))...)
		slices.Sort(want)
		if got := slices.Sorted(maps.Keys(env)); !slices.Equal(got, want) {
			t.Errorf("%s: environment %v, want exactly %v", c.w.ac.Name, got, want)
		}
		if env["PATH"] != "/usr/bin:/bin" || env["HOME"] != c.w.dir {
			t.Errorf("%s: PATH %q HOME %q", c.w.ac.Name, env["PATH"], env["HOME"])
		}
		raw := readProc(t, pid, "environ")
		if strings.Contains(raw, c.other) || strings.Contains(raw, "UNIBOX_TP_SENTINEL") || strings.Contains(raw, "parent-only") {
			// Names only: values may be someone's secrets.
			t.Errorf("%s: environment holds what is not its own (variables %v)", c.w.ac.Name, slices.Sorted(maps.Keys(env)))
		}
		if cmd := readProc(t, pid, "cmdline"); strings.Contains(cmd, canaryA) || strings.Contains(cmd, canaryB) {
			t.Errorf("%s: a canary is in argv", c.w.ac.Name)
		}
		if red := c.w.spec.Redact("login " + c.own + " refused"); strings.Contains(red, c.own) {
			t.Errorf("%s: Redact kept the secret: %q", c.w.ac.Name, red)
		}
	}
	// Each adapter reaps its own child when closed.
	for _, w := range []*world{a, b} {
		w.a.Close()
		waitGone(t, w.pids()[0])
	}
}

func readProc(t *testing.T, pid int, file string) string {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		t.Fatalf("read /proc/%d/%s: %v", pid, file, err)
	}
	return string(data)
}

// procEnv is a running process's environment as a map.
func procEnv(t *testing.T, pid int) map[string]string {
	env := map[string]string{}
	for kv := range strings.SplitSeq(readProc(t, pid, "environ"), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}
