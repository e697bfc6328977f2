package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

func TestListJSONWithOneDownOneHung(t *testing.T) {
	path := facetest.ThreeAccounts(t)
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := cli.List([]string{"--json", "--config", path, "--timeout", "3s"}, &stdout, &stderr)
	took := time.Since(start)
	if code != launch.ExitPartial {
		t.Fatalf("exit %d, want 3 (stderr %s)", code, stderr.String())
	}
	var out map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	var got cli.ListJSON
	json.Unmarshal(stdout.Bytes(), &got)
	want := map[string][2]string{"Work": {"connected", "none"}, "Down": {"cooling_down", "unavailable"}, "Hung": {"", "timeout"}}
	for _, a := range got.Accounts {
		w := want[a.Name]
		if (w[0] != "" && a.State != w[0]) || a.ErrorClass != w[1] {
			t.Errorf("%s: state %s class %s, want %v (error %q)", a.Name, a.State, a.ErrorClass, w, a.Error)
		}
	}
	if got.Accounts[0].Count != 3 || len(got.Messages) != 3 {
		t.Fatalf("Work's messages: %s", stdout.String())
	}
	m := got.Messages[0]
	if m.ID != "Work/INBOX/1/1" || m.From.Address != "ann@example.com" || m.Subject != "hello 0" || m.Date == "" || m.Seen {
		t.Fatalf("first message: %+v", m)
	}
	for _, key := range []string{`"id"`, `"account"`, `"folder"`, `"uid"`, `"uidvalidity"`, `"message_id"`, `"from"`, `"name"`, `"address"`, `"subject"`, `"date"`, `"seen"`, `"flagged"`, `"state"`, `"error"`, `"error_class"`, `"cooldown_seconds"`, `"count"`} {
		if !strings.Contains(stdout.String(), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	if strings.Contains(stdout.String()+stderr.String(), "canary-secret-31337") {
		t.Fatal("the password leaked into the output")
	}
	// Without the per-account deadline, Hung would hold the list for the
	// 15 s IMAP command timeout; the bound is generous for a loaded machine.
	t.Logf("list took %s with a 3 s per-account timeout", took)
	if took > 3*time.Second+6*time.Second {
		t.Fatalf("list took %s with a 3 s per-account timeout", took)
	}
}

func TestListExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cli.List([]string{"--bogus"}, &out, &errb); code != launch.ExitUsage {
		t.Fatalf("bad flag: exit %d", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[[account]]\nname = \"x\"\nsecurity = \"ssl\"\n"), 0o600)
	errb.Reset()
	if code := cli.List([]string{"--config", bad}, &out, &errb); code != launch.ExitUsage || !strings.Contains(errb.String(), "bad.toml:3") {
		t.Fatalf("bad config: exit %d, %s", code, errb.String())
	}
	path := facetest.ThreeAccounts(t)
	errb.Reset()
	if code := cli.List([]string{"--config", path, "--account", "Down", "--timeout", "1s"}, &out, &errb); code != launch.ExitNone {
		t.Fatalf("only a down account: exit %d", code)
	}
	if code := cli.List([]string{"--config", path, "--account", "Nope"}, &out, &errb); code != launch.ExitUsage {
		t.Fatalf("unknown account: exit %d", code)
	}
	out.Reset()
	if code := cli.List([]string{"--config", path, "--account", "Work"}, &out, &errb); code != launch.ExitOK || !strings.Contains(out.String(), "hello 2") {
		t.Fatalf("healthy account: exit %d\n%s", code, out.String())
	}
}

func TestStatusJSON(t *testing.T) {
	path := facetest.ThreeAccounts(t)
	var out, errb bytes.Buffer
	// Work spawns, provisions and probes within the deadline even on a
	// loaded machine; Hung times out at it.
	code := cli.Status([]string{"--json", "--config", path, "--timeout", "3s"}, &out, &errb)
	if code != launch.ExitPartial {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct{ Accounts []cli.StatusJSON }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Accounts) != 3 {
		t.Fatalf("%v: %s", err, out.String())
	}
	if a := got.Accounts[0]; a.State != "connected" || a.LatencyMS <= 0 && a.ErrorClass != "none" {
		t.Fatalf("Work: %+v", a)
	}
	if got.Accounts[1].ErrorClass != "unavailable" || got.Accounts[2].ErrorClass != "timeout" {
		t.Fatalf("down/hung: %+v", got.Accounts)
	}
}

// `unibox status` says what waits in the outbox: mail left counting down
// at a quit goes at the next start, and the person sees it there.
func TestStatusSaysWhatWaitsInTheOutbox(t *testing.T) {
	path := facetest.ThreeAccounts(t) // its own $XDG_DATA_HOME: the outbox's
	root, err := outbox.DefaultRoot()
	if err != nil {
		t.Fatal(err)
	}
	box, err := outbox.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	raw := []byte("From: sam@example.com\r\nTo: bob@example.com\r\nSubject: x\r\n\r\nx\r\n")
	if _, err := box.Enqueue(outbox.Entry{Account: "Work", MessageID: "m-1", From: "sam@example.com", Rcpt: []string{"bob@example.com"},
		SendAt: time.Now().Add(time.Minute)}, raw, raw); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cli.Status([]string{"--config", path, "--account", "Work", "--timeout", "5s"}, &out, &errb)
	if s := out.String(); !strings.Contains(s, "outbox: Work: to bob@example.com: waits, goes at ") {
		t.Fatalf("status does not say what waits:\n%s%s", s, errb.String())
	}
}
