package imaptest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// PrivateDovecot is a Dovecot instance of one test's own (see
// .ci/dovecot.sh), reached through a proxy, which the test may stop: a
// server that is really gone, not just cut off. Its users are
// .ci/dovecot.sh's (alice, ...).
type PrivateDovecot struct {
	*Dovecot
	dir    string
	script string
}

// StartDovecot starts a private instance, with env added to the script's
// environment. It runs where the shared Dovecot runs (UNIBOX_DOVECOT_ADDR
// set, so dovecot is installed and we are root), skips otherwise, and
// fails under CI like NewDovecot.
func StartDovecot(t testing.TB, env ...string) *PrivateDovecot {
	t.Helper()
	dovecotAddr(t) // skip or fail exactly as the shared instance's tests do
	script, err := findScript()
	if err != nil {
		t.Fatal(err)
	}
	d := &PrivateDovecot{dir: t.TempDir(), script: script}
	cmd := exec.Command("bash", script, "start", d.dir)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dovecot.sh start: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { d.Stop(t) })
	var addr string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "UNIBOX_DOVECOT_ADDR="); ok {
			addr = v
		}
	}
	if addr == "" {
		t.Fatalf("dovecot.sh start printed no address:\n%s", out)
	}
	d.Dovecot = newDovecot(t, addr, []string{"alice"})
	return d
}

// Stop stops the instance (idempotent): its port refuses connections.
func (d *PrivateDovecot) Stop(t testing.TB) {
	t.Helper()
	d.dropSeeders()
	if out, err := exec.Command("bash", d.script, "stop", d.dir).CombinedOutput(); err != nil && !strings.Contains(string(out), "no running instance") {
		t.Errorf("dovecot.sh stop: %v\n%s", err, out)
	}
}

// Kick makes the server hang up on every session of user (doveadm kick:
// "* BYE", then EOF), as a server restarting or timing a session out does.
func (d *PrivateDovecot) Kick(t testing.TB, user string) {
	t.Helper()
	d.dropSeeders() // the kick would hang up on them too
	if out, err := exec.Command("bash", d.script, "kick", d.dir, user).CombinedOutput(); err != nil {
		t.Fatalf("dovecot.sh kick %s: %v\n%s", user, err, out)
	}
}

// DirectAddr is the instance's own address (host:port), not its proxy's:
// for a benchmark whose timings must not include the proxy's relay.
func (d *PrivateDovecot) DirectAddr() string { return d.addr }

// Dir is the folder the instance lives in (UNIBOX_DOVECOT_DIR for it):
// smtptest.IntoDovecot delivers with its config.
func (d *PrivateDovecot) Dir() string { return d.dir }

// Log is the instance's dovecot.log so far (logins name their mechanism).
func (d *PrivateDovecot) Log() string {
	b, _ := os.ReadFile(filepath.Join(d.dir, "dovecot.log"))
	return string(b)
}

// findScript finds .ci/dovecot.sh above the test's working directory.
func findScript() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, ".ci", "dovecot.sh")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no .ci/dovecot.sh above the working directory")
		}
		dir = parent
	}
}

// Deliver writes n messages straight into user's INBOX on disk (a Maildir
// file each), for data sets too big to APPEND one by one; Dovecot indexes
// them at the next SELECT. user must have logged in once (NewUser does).
//
// The names' microseconds are scattered, as real ones are: with
// "<1700000000+i>.M<i>P..." Dovecot's filename hash (an ELF-style hash
// of the name before ":") collides massively (10,000 names, about 1,000
// distinct hashes), and each SELECT of a big folder spent its time
// comparing names in that hash table (maildir_filename_base_cmp).
func (d *PrivateDovecot) Deliver(t testing.TB, user string, n int, mail func(i int) []byte) {
	t.Helper()
	dir := filepath.Join(d.dir, "mail", user, "Maildir", "cur")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		usec := uint64(i) * 2654435761 % 1000000
		p := filepath.Join(dir, fmt.Sprintf("%d.M%dP%d.unibox:2,", 1700000000+i, usec, os.Getpid()))
		if err := os.WriteFile(p, mail(i), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 5000, 5000); err != nil {
			t.Fatal(err)
		}
	}
}
