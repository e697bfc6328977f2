package mcpprovider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// testDials are quick numbers for real children; no health timer and
// minute-long cooldowns (whose end would start a probe), so that every
// probe and dial in a test is one the test caused.
var testDials = conn.Dials{
	ConnectTimeout:  20 * time.Second,
	ConnectAttempts: 2,
	AttemptPause:    20 * time.Millisecond,
	CallTimeout:     20 * time.Second,
	BackoffBase:     time.Minute,
	BackoffCap:      time.Minute,
	BackoffJitter:   -1,
	StableAfter:     time.Hour,
	ProbeInterval:   -1,
	ProbeTimeout:    10 * time.Second,
	TerminateAfter:  time.Second,
	WaitDelay:       time.Second,
}

// world is one kind = "mcp" account run against a fixture child.
type world struct {
	t    *testing.T
	dir  string
	ac   config.Account
	spec *provider.Spec
	a    *conn.Adapter

	mu       sync.Mutex
	password string
	fetches  int
}

// newWorld builds the account through Build and runs it through a real
// conn.Adapter. mod may change the account before Build.
func newWorld(t *testing.T, profile string, mod func(*config.Account)) *world {
	t.Helper()
	return newWorldPw(t, profile, mod, true)
}

// newWorldPw is newWorld; with fake false the account's own password_env
// or password_cmd is used, as in production.
func newWorldPw(t *testing.T, profile string, mod func(*config.Account), fake bool) *world {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, dir: t.TempDir(), password: "s3cret-" + profile}
	w.ac = config.Account{Name: "acct-" + profile, Kind: config.KindMCP, Command: []string{exe}, Profile: profile,
		PasswordEnv: "UNIBOX_TP_UNUSED", Env: map[string]string{
			"UNIBOX_TP_FIXTURE": profile, "UNIBOX_TP_DIR": w.dir, "GORACE": "atexit_sleep_ms=0"}}
	if profile == "mcp-mail-server" {
		for _, v := range mailServerEnv {
			if v != "EMAIL_PASS" {
				w.ac.Env[v] = "x-" + strings.ToLower(v)
			}
		}
	}
	if mod != nil {
		mod(&w.ac)
	}
	password := w.fetch
	if !fake {
		password = nil
	}
	w.spec, err = Build(w.ac, password, Options{Path: "/usr/bin:/bin", Home: w.dir})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	w.a = conn.New(conn.Options{Account: w.ac.Name, Dial: w.spec.Dial, AfterConnect: w.spec.AfterConnect,
		Classify: w.spec.Classify, ClassifyConnect: w.spec.ClassifyConnect, Probe: w.spec.Probe,
		Redact: w.spec.Redact, Dials: testDials})
	t.Cleanup(func() {
		w.a.Close()
		for _, pid := range w.pids() { // everything reaped once the adapter is closed
			waitGone(t, pid)
		}
	})
	return w
}

func (w *world) fetch(context.Context) (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.fetches++
	return w.password, nil
}

// set turns a knob file on (with content) or off.
func (w *world) set(name, content string, on bool) {
	p := fxKnobs(w.dir).path(name)
	if !on {
		os.Remove(p)
		return
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// seed writes the fixture mailbox before the first connect.
func (w *world) seed(msgs ...fxMsg) {
	b := &fxBox{NextUID: 100, Msgs: msgs}
	if err := b.save(w.dir); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) box() *fxBox {
	b, err := loadBox(w.dir)
	if err != nil {
		w.t.Fatal(err)
	}
	return b
}

// lines returns a fixture log.
func (w *world) lines(event string) []string {
	data, _ := os.ReadFile(fxKnobs(w.dir).path(event + ".log"))
	return strings.Fields(string(data))
}

// calls counts the fixture's calls of tool.
func (w *world) calls(tool string) int {
	n := 0
	for _, l := range w.lines("calls") {
		if l == tool {
			n++
		}
	}
	return n
}

func (w *world) pids() []int {
	var out []int
	for _, l := range w.lines("pids") {
		if n, err := strconv.Atoi(l); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func (w *world) id(folder string, uid uint32) model.MessageID {
	return model.MessageID{Account: w.ac.Name, Folder: folder, UID: uid}
}

// waitGone waits for pid to be reaped (a zombie still has /proc/<pid>);
// the deadline is only a failure bound.
func waitGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("child %d was never reaped", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// mustClass fails unless err is a *conn.Error of class want.
func mustClass(t testing.TB, err error, want conn.ErrorClass) {
	t.Helper()
	var ce *conn.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *conn.Error", err, err)
	}
	if got := conn.ClassOf(err); got != want {
		t.Fatalf("class %s, want %s: %v", got, want, err)
	}
}

// inbox seeds a small mailbox: two INBOX messages unread/read, one with an
// attachment and a flag, one in Archive.
func inbox() []fxMsg {
	d := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	return []fxMsg{
		{UID: 1, Folder: "INBOX", Subject: "Invoice March", FromName: "Billing", FromAddr: "billing@example.com",
			To: "me@example.com", Date: d, Body: "Please pay the invoice."},
		{UID: 2, Folder: "INBOX", Subject: "Lunch?", FromName: "Ann Example", FromAddr: "ann@example.com",
			To: "me@example.com", Date: d.Add(time.Hour), Seen: true, Flagged: true, Attach: true, Body: "Noon at the usual place.\nAnn"},
		{UID: 3, Folder: "INBOX", Subject: "Build \x1b[31mfailed\x1b[0m", FromName: "CI", FromAddr: "ci@example.com",
			To: "me@example.com", Date: d.Add(2 * time.Hour), Body: "See the log.\x1b]52;c;ZXZpbA==\x07"},
		{UID: 7, Folder: "Archive", Subject: "Old news", FromName: "", FromAddr: "news@example.com",
			To: "me@example.com", Date: d.Add(-24 * time.Hour), Seen: true, Body: "old"},
	}
}
