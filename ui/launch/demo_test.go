package launch_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
	"unibox/ui/cli"
	"unibox/ui/launch"
)

// The demo remembers its mail in memory only: nothing is written under
// the cache folder (or anywhere in HOME).
func TestDemoWritesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	var stdout, stderr bytes.Buffer
	if code := cli.List([]string{"--demo", "--json"}, &stdout, &stderr); code != launch.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the demo wrote %v", entries)
	}
}

// The demo sends too: its own SMTP server delivers to its own accounts,
// and its outbox lives in a temp folder that Close removes.
func TestDemoSendsToItself(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	var stdout, stderr bytes.Buffer
	msg := "To: personal@demo.unibox\r\nSubject: note to self\r\n\r\nfrom work\r\n"
	if code := cli.Send([]string{"--demo", "--account", "Work", "--json"}, strings.NewReader(msg), &stdout, &stderr); code != launch.ExitOK {
		t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), `"saved_to": "Sent"`) {
		t.Errorf("no copy in Sent: %s", stdout.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the demo wrote %v", entries)
	}

	env, err := launch.Open("", true, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	box, err := env.Outbox()
	if err != nil {
		env.Close()
		t.Fatal(err)
	}
	if d := env.Config.Compose.SendDelay.Duration; d != config.DefaultSendDelay {
		t.Errorf("the demo's send_delay is %s, not the default %s: undo would have no time", d, config.DefaultSendDelay)
	}
	work, personal := env.Set.Find("Work"), env.Set.Find("Personal")
	p, err := compose.Draft{From: model.Address{Address: "work@demo.unibox"}, To: []model.Address{{Address: "personal@demo.unibox"}}, Subject: "hello me", Body: "x"}.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e, err := box.Enqueue(outbox.Entry{Account: "Work", MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: time.Now()}, p.Wire, p.Saved)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := dispatch.New(box, []dispatch.Account{work.Sending()}, dispatch.Options{}).Deliver(t.Context(), e.ID); err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("%+v %v", rep, err)
	}
	page, err := personal.List(t.Context(), accounts.ListOptions{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(page.Messages, func(m model.Message) bool { return m.Subject == "hello me" }) {
		t.Errorf("Personal's inbox lacks the message sent from Work")
	}
	env.Close()
	if _, err := os.Stat(box.Root()); !os.IsNotExist(err) {
		t.Errorf("the demo's outbox %s outlives it: %v", box.Root(), err)
	}
}
