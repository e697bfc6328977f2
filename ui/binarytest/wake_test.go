package binarytest

import (
	"context"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/ui/agent"
	"unibox/ui/facetest"
)

// Wake-up: the real binary (`unibox mcp`) is stopped; meanwhile its mail
// server goes away. The probe timer is ten minutes off, and account_status
// reads state without dialling, so only the wake detection can turn the
// badge from connected to cooling down within the test's bound.
func TestWakeFindsWhatDiedWhileStopped(t *testing.T) {
	bin := buildUnibox(t)
	srv := facetest.Sam(t, "pw", nil)
	dir := t.TempDir()
	path := facetest.Write(t, facetest.Resilience("1m")+"probe_interval = \"10m\"\n"+facetest.IMAP("Work", srv.Port(), facetest.Env("PW")))
	cmd := exec.Command(bin, "mcp", "--config", path)
	cmd.Env = []string{"PW=pw", "XDG_CACHE_HOME=" + dir, "XDG_STATE_HOME=" + dir}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	facetest.Call(t, cs, "list_messages", map[string]any{}, nil)
	state := func() string {
		var out agent.StatusOut
		facetest.Call(t, cs, "account_status", map[string]any{}, &out)
		return out.Accounts[0].State
	}
	if st := state(); st != "connected" {
		t.Fatalf("before the stop: %s", st)
	}

	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	srv.Refuse()
	srv.DropAll()
	time.Sleep(4 * time.Second) // the stop itself (the fault), longer than the detector's slack
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	woke := time.Now()
	for st := state(); st == "connected"; st = state() {
		if time.Since(woke) > 15*time.Second {
			t.Fatal("still connected 15 s after the wake: nothing looked again")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("badge corrected %s after SIGCONT", time.Since(woke).Round(time.Millisecond))
}
