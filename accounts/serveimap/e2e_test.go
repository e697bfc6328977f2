package serveimap

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapprovider"
	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// childDial starts the test binary as the provider child (see TestMain),
// with an explicit environment holding no secret.
func childDial(exe, dir string, args ...string) conn.Dial {
	return func(ctx context.Context) (mcp.Transport, error) {
		cmd := exec.Command(exe, args...)
		cmd.Env = []string{"UNIBOX_TEST_SERVE_IMAP=1", "GORACE=atexit_sleep_ms=0", "UNIBOX_TEST_DIR=" + dir}
		return &mcp.CommandTransport{Command: cmd}, nil
	}
}

func countLines(t testing.TB, path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n")
}

// The article's regression end to end: the real child dies in the middle
// of a list; the list still succeeds through a fresh, re-provisioned child.
func TestAdapterChildKilledMidList(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := b.NewUser(t)
	b.Seed(t, user, "INBOX", mail("still here", "a@x.org", time.Hour))
	exe, _ := os.Executable()
	dir := t.TempDir()
	in := accountIn(b, user, pass)
	a := conn.New(conn.Options{Account: "work", Dial: childDial(exe, dir),
		AfterConnect: imapprovider.Provision(in, nil), Classify: imapprovider.Classify, Probe: imapprovider.Probe("work", nil),
		Dials: conn.Dials{TerminateAfter: 200 * time.Millisecond, ProbeInterval: -1}})
	defer a.Close()
	if err := os.WriteFile(filepath.Join(dir, "die-on-list"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := a.Call(t.Context(), conn.Request{Tool: "list_messages", Args: imapwire.ListMessagesIn{Account: "work"}, Idempotent: true})
	if err != nil {
		t.Fatalf("list through a dying child: %v", err)
	}
	var out imapwire.ListMessagesOut
	if err := imapwire.Decode(res, &out); err != nil || len(out.Messages) != 1 || out.Messages[0].Subject != "still here" {
		t.Fatalf("list: %v %s", err, pretty(out))
	}
	if spawns, adds := countLines(t, filepath.Join(dir, "spawns")), countLines(t, filepath.Join(dir, "adds")); spawns != 2 || adds != 2 {
		t.Fatalf("spawns %d, add_account %d; want 2 and 2", spawns, adds)
	}
	if st := a.Status(); st.Connects != 2 || st.State != conn.StateConnected {
		t.Fatalf("%+v", st)
	}
}

// The mail server behind a live child refuses connections: the account
// cools down (classified unavailable by the provider), and comes back on
// the probe after the server does, without respawning the child.
func TestAdapterUpstreamDownBehindLiveChild(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := b.NewUser(t)
	exe, _ := os.Executable()
	dir := t.TempDir()
	// Every transition, in order: the 50 ms cooldown may be over (and its
	// probe under way) before the test could look at the latest status.
	trace := make(chan conn.Status, 1024)
	a := conn.New(conn.Options{Account: "work", Dial: childDial(exe, dir),
		AfterConnect: imapprovider.Provision(accountIn(b, user, pass), nil), Classify: imapprovider.Classify, Probe: imapprovider.Probe("work", nil),
		Trace: func(st conn.Status) { trace <- st },
		Dials: conn.Dials{TerminateAfter: 200 * time.Millisecond, ProbeInterval: -1,
			BackoffBase: 50 * time.Millisecond, BackoffCap: 200 * time.Millisecond}})
	defer a.Close()
	if err := a.EnsureConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	up := b.Proxy().Down()
	_, err := a.Call(t.Context(), conn.Request{Tool: "list_messages", Args: imapwire.ListMessagesIn{Account: "work"}, Idempotent: true})
	if conn.ClassOf(err) != conn.ClassUnavailable {
		t.Fatalf("upstream down: err %v, status %+v", err, a.Status())
	}
	next := func(want conn.State) conn.Status {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case st := <-trace:
				if st.State == want {
					return st
				}
			case <-deadline:
				t.Fatalf("never %s: %+v", want, a.Status())
			}
		}
	}
	if st := next(conn.StateCoolingDown); st.Class != conn.ClassUnavailable {
		t.Fatalf("upstream down: cooling down with class %s", st.Class)
	}
	up()
	next(conn.StateConnected)
	if spawns := countLines(t, filepath.Join(dir, "spawns")); spawns != 1 {
		t.Fatalf("the live child was respawned: %d spawns", spawns)
	}
}

// The built binary: `unibox serve-imap` speaks MCP on stdio.
func TestBuiltBinaryServeIMAP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "unibox")
	build := exec.Command("go", "build", "-o", bin, "unibox")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	b := imaptest.NewMem(t, memimap.Options{})
	user, pass := b.NewUser(t)
	b.Seed(t, user, "INBOX", mail("from the binary", "a@x.org", time.Hour))
	cmd := exec.Command(bin, "serve-imap")
	cmd.Env = []string{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "smoke"}, nil).Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mustOK(t, "add_account", call(t, cs, "add_account", accountIn(b, user, pass), nil))
	var out imapwire.ListMessagesOut
	mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &out))
	if len(out.Messages) != 1 || out.Messages[0].Subject != "from the binary" {
		t.Fatalf("%s", pretty(out))
	}
}
