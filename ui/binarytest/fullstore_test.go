package binarytest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/ui/agent"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// A disk that fills up is met for real: a 1 MiB tmpfs, mounted over
// XDG_CACHE_HOME in a private mount namespace (unshare -m: nothing
// outside sees it, and it goes when the script ends). A file-size limit
// would not do: SQLite reports that as an I/O error, not SQLITE_FULL.

// namespaces skips the test unless it can mount in a namespace of its own
// (root, and unshare). CI runs as root: there it runs.
func namespaces(t *testing.T) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root: mounts a tmpfs in a private mount namespace (CI runs as root)")
	}
	if out, err := exec.Command("unshare", "-m", "--propagation", "private", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", t.TempDir()).CombinedOutput(); err != nil {
		t.Skipf("cannot mount in a private mount namespace (unshare -m): %v %s", err, out)
	}
}

// fullPrelude mounts the tmpfs, runs $UNIBOX $PRIME (a first sync: the
// store exists), keeps what the store holds in $OUT/before.json, says
// "primed" (or why not) on the FIFO $OUT/primed and waits for a line on
// the FIFO $OUT/go (the test changes the server meanwhile), then fills
// the disk to $FREE_KB KiB free. Its stdin and stdout stay the face's.
const fullPrelude = `set -eu
trap 'echo "prelude failed: $(cat "$OUT/prime.err" 2>/dev/null)" >"$OUT/primed"' EXIT
mount -t tmpfs -o size=1m tmpfs "$XDG_CACHE_HOME"
"$UNIBOX" $PRIME --config "$CONFIG" >/dev/null 2>"$OUT/prime.err"
"$UNIBOX" list --cached --json --limit 1000 --config "$CONFIG" >"$OUT/before.json"
trap - EXIT
echo primed >"$OUT/primed"
read -r go <"$OUT/go"
dd if=/dev/zero of="$XDG_CACHE_HOME/filler" bs=4096 2>/dev/null || true
truncate -s -"$FREE_KB"K "$XDG_CACHE_HOME/filler"
`

// fullSteps runs each face on the full disk, then frees it: each step's
// stdout, stderr and exit code go to $OUT/<step>.{out,err,rc}.
const fullSteps = `step() { name=$1; shift; set +e; "$UNIBOX" "$@" --config "$CONFIG" >"$OUT/$name.out" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.rc"; set -e; }
step list list --json --limit 20 --timeout 30s
step sync sync --json --timeout 30s
step status status --json --timeout 30s
step statustext status --timeout 30s
rm "$XDG_CACHE_HOME/filler"
step after list --cached --json --limit 1000
step sync2 sync --json --timeout 30s
`

// fullDisk is a command that runs script after fullPrelude, with unibox
// (bin) on config, the disk left with freeKB KiB free; out holds the
// handshake FIFOs (see primed) and what the steps wrote.
func fullDisk(t *testing.T, bin, config, prime string, freeKB int, script string) (cmd *exec.Cmd, out string) {
	t.Helper()
	out = t.TempDir()
	for _, fifo := range []string{"primed", "go"} {
		if err := syscall.Mkfifo(filepath.Join(out, fifo), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd = exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", fullPrelude+script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "UNIBOX=" + bin, "CONFIG=" + config, "OUT=" + out, "PRIME=" + prime,
		fmt.Sprintf("FREE_KB=%d", freeKB), "UNIBOX_TEST_PW=pw", "GORACE=atexit_sleep_ms=0",
		"XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"), "XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME")}
	return cmd, out
}

// A store that cannot be written is a warning, never an empty inbox:
// `unibox list` prints the server's messages and exits 0, warning that
// the store is full; `unibox sync` says the store is full and exits
// non-zero; `status` says so; and the store loses none of what it held,
// and goes on once there is room. Three ways to be full: the store opens
// but a first sync's next page does not fit; it opens but new mail does
// not fit; the disk is so full the store cannot even open.
func TestFullDiskIsAWarning(t *testing.T) {
	namespaces(t)
	for _, tt := range []struct {
		name     string
		prime    string // the first run, on a disk with room
		freeKB   int
		newMail  int      // delivered after the first run
		total    int      // what the server then holds
		inStatus []string // what status may say of the store
	}{
		// The first list stored its 20 rows (a first sync's first page is
		// --limit); room for them, not for the sync's next 200:
		// the warning stays (a smaller write that fits proves nothing).
		{"a first sync's next page", "list --limit 20", 64, 0, 300, []string{"store: disk nearly full"}},
		{"new mail", "sync", 40, 150, 450, []string{"store: disk nearly full"}},
		// With no room at all, status's own open of the store fails, or
		// succeeds (likely when the last process left its -wal and -shm
		// files behind, its checkpoint at close having no room either):
		// either is a warning, and CI saw both.
		{"no room to open the store", "list --limit 20", 0, 0, 300, []string{"store: off: database or disk is full", "store: disk nearly full"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := facetest.Sam(t, "pw", nil)
			facetest.AppendMail(t, srv, 0, 300)
			exe := buildUnibox(t) // the real binary: a race-built one is several times slower, and these test a full disk, not races
			cmd, out := fullDisk(t, exe, facetest.OneAccount(t, srv), tt.prime, tt.freeKB, fullSteps)
			script(t, cmd, out, func() { facetest.AppendMail(t, srv, 300, tt.newMail) })
			read := func(step string) (string, string, int) {
				o, _ := os.ReadFile(filepath.Join(out, step+".out"))
				e, _ := os.ReadFile(filepath.Join(out, step+".err"))
				var rc int
				b, _ := os.ReadFile(filepath.Join(out, step+".rc"))
				fmt.Sscan(string(b), &rc)
				return string(o), string(e), rc
			}

			o, e, rc := read("list")
			var list cli.ListJSON
			_ = json.Unmarshal([]byte(o), &list)
			subj, stale := facetest.Listed(list)
			if rc != launch.ExitOK || len(subj) != 20 || !strings.HasPrefix(subj[0], fmt.Sprintf("m%03d ", tt.total-1)) || slices.Contains(stale, true) {
				t.Fatalf("list on a full disk: exit %d, %d messages %.20q, stale %v\n%s", rc, len(subj), subj, stale, e)
			}
			if !strings.Contains(e, "warning") || !strings.Contains(e, "database or disk is full") || !strings.Contains(list.Accounts[0].Store, "database or disk is full") {
				t.Fatalf("list on a full disk warns %q, store %q", e, list.Accounts[0].Store)
			}

			o, e, rc = read("sync")
			var sync struct{ Accounts []cli.SyncJSON }
			_ = json.Unmarshal([]byte(o), &sync)
			if rc == launch.ExitOK || len(sync.Accounts) != 1 || !strings.Contains(sync.Accounts[0].Error, "store: ") ||
				!strings.Contains(sync.Accounts[0].Error, "database or disk is full") || sync.Accounts[0].ErrorClass != "store" {
				t.Fatalf("sync on a full disk: exit %d\n%s\n%s", rc, o, e)
			}

			o, e, rc = read("status")
			var status struct{ Accounts []cli.StatusJSON }
			_ = json.Unmarshal([]byte(o), &status)
			if rc != launch.ExitOK || len(status.Accounts) != 1 || !slices.ContainsFunc(tt.inStatus, func(p string) bool {
				return strings.HasPrefix("store: "+status.Accounts[0].Store, p)
			}) {
				t.Fatalf("status on a full disk: exit %d\n%s\n%s", rc, o, e)
			}
			if o, _, _ := read("statustext"); !slices.ContainsFunc(tt.inStatus, func(p string) bool { return strings.Contains(o, "Work: "+p) }) {
				t.Fatalf("status's text on a full disk:\n%s", o)
			}

			before, _ := os.ReadFile(filepath.Join(out, "before.json"))
			o, e, rc = read("after")
			if b, a := storedRows(t, before), storedRows(t, []byte(o)); rc != launch.ExitOK || len(b) < 20 || !slices.Equal(a, b) {
				t.Fatalf("the store held %d rows before the disk filled, %d after (exit %d, %s)", len(b), len(a), rc, e)
			}
			o, e, rc = read("sync2")
			if _ = json.Unmarshal([]byte(o), &sync); rc != launch.ExitOK || sync.Accounts[0].Stored != uint32(tt.total) {
				t.Fatalf("sync with room again: exit %d\n%s\n%s", rc, o, e)
			}
		})
	}
}

// storedRows are the rows of a `list --cached --json`, each as one string
// (id, flags, subject).
func storedRows(t *testing.T, b []byte) []string {
	t.Helper()
	var out cli.ListJSON
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	var rows []string
	for _, m := range out.Messages {
		rows = append(rows, fmt.Sprintf("%s %v %v %s", m.ID, m.Seen, m.Flagged, m.Subject))
	}
	return rows
}

// primed waits for the prelude of the script writing into out to say its
// first run is over, runs between (the server changes), and lets it fill
// the disk and go on.
func primed(t *testing.T, out string, between func()) {
	t.Helper()
	said, err := os.ReadFile(filepath.Join(out, "primed")) // blocks until the prelude writes
	if err != nil || string(said) != "primed\n" {
		t.Fatalf("the first run: %v %s", err, said)
	}
	between()
	if err := os.WriteFile(filepath.Join(out, "go"), []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// script runs cmd to its end, primed with between.
func script(t *testing.T, cmd *exec.Cmd, out string, between func()) {
	t.Helper()
	var output strings.Builder
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var err error
	done := make(chan struct{})
	go func() { err = cmd.Wait(); close(done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done }) // when the test fails before the end
	primed(t, out, between)
	if <-done; err != nil {
		t.Fatalf("script: %v\n%s", err, output.String())
	}
}

// The agent face on a full disk: list_messages gives the server's
// messages, and account_status says the store is full, in its text and
// its structured answer.
func TestFullDiskAgent(t *testing.T) {
	namespaces(t)
	srv := facetest.Sam(t, "pw", nil)
	facetest.AppendMail(t, srv, 0, 300)
	exe := buildUnibox(t) // the real binary: a race-built one is several times slower, and these test a full disk, not races
	cmd, out := fullDisk(t, exe, facetest.OneAccount(t, srv), "list --limit 20", 40, `exec "$UNIBOX" mcp --config "$CONFIG" --timeout 30s`)
	connected := make(chan error, 1)
	var cs *mcp.ClientSession
	go func() {
		var err error
		cs, err = mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		connected <- err
	}()
	primed(t, out, func() {})
	if err := <-connected; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{Accounts: []string{"Work"}, Limit: 20}, &list)
	if len(list.Messages) != 20 || !strings.HasPrefix(list.Messages[0].Subject, "m299 ") || list.Messages[0].Stale || !list.Accounts[0].Answered {
		t.Fatalf("list_messages on a full disk: %+v", list)
	}
	var st agent.StatusOut
	text := facetest.Call(t, cs, "account_status", struct{}{}, &st)
	if len(st.Accounts) != 1 || st.Accounts[0].Store != "database or disk is full" || !strings.HasPrefix(text, "Work: connected; ") || !strings.HasSuffix(strings.TrimSpace(text), "; store: database or disk is full") {
		t.Fatalf("account_status on a full disk: %+v\n%s", st, text)
	}
}

// The TUI on a full disk shows the inbox with the mail that came since
// the store was last written (the server's page: the store cannot hold
// it), and its details (i) say why it is not remembered.
func TestFullDiskTUI(t *testing.T) {
	namespaces(t)
	srv := facetest.Sam(t, "pw", nil)
	facetest.AppendMail(t, srv, 0, 300)
	cmd, out := fullDisk(t, buildUnibox(t), facetest.OneAccount(t, srv), "sync", 40, `exec "$UNIBOX" --config "$CONFIG"`)
	r := startPTY(t, cmd.Path, cmd.Args[1:], cmd.Env, 30, 120)
	primed(t, out, func() { facetest.AppendMail(t, srv, 300, 150) })
	r.waitScreen(30*time.Second, "m449 lorem")
	r.press("i")
	r.waitScreen(30*time.Second, "store: database or disk is full")
}
