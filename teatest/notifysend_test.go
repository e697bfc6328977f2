package teatest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/model"
	"unibox/ui/tui"
)

// script writes an executable shell script into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeNotifySendCmd is a notify-send 0.8 (the test binary as one) whose
// notifications arrive on the returned pipe, one JSON line each. It sets
// its own environment, since unibox gives the notifier a minimal one.
func fakeNotifySendCmd(t *testing.T, before string) (string, *fifo) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	shown := newFifo(t, "shown")
	return script(t, t.TempDir(), "notify-send", before+"UNIBOX_TEST_FAKE_NOTIFY_SEND='"+shown.path+"' exec '"+bin+"' \"$@\"\n"), shown
}

// arrival puts a new unread message at the top of a fake account's inbox.
func arrival(acct *fakeAccount, uid uint32, from, subject string, age time.Duration) {
	acct.mu.Lock()
	defer acct.mu.Unlock()
	m := model.Message{ID: model.MessageID{Account: acct.name, Folder: "INBOX", UIDValidity: 1, UID: uid},
		From: model.Address{Name: from, Address: "x@example.com"}, Subject: subject, Date: now.Add(-age)}
	acct.page.Messages = append([]model.Message{m}, acct.page.Messages...)
}

// The README's notify-send line works with notify-send 0.8: one summary,
// one body, each placeholder filled in inside its own argument, never
// split, never expanded twice, markup escaped, never read as an option;
// {count} counts a burst. The notifier gets the session's variables and
// nothing else of the environment (no password variable).
func TestNotifySendWithPlaceholders(t *testing.T) {
	t.Setenv("DISPLAY", ":42")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus")
	t.Setenv("UNIBOX_TEST_MAIL_PASSWORD", "hunter2")
	envFile := filepath.Join(t.TempDir(), "env")
	notifySend, shown := fakeNotifySendCmd(t, "env > '"+envFile+"'\n")
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyWindow = 50*time.Millisecond, 10*time.Millisecond
		o.NotifyCmd = []string{notifySend, "--app-name=unibox", "{account}: {from}", "{subject}", "--urgency=low"}
	})
	waitFor(t, tm, "3 messages")
	arrival(work, 501, "Priya Raman", "older of the burst", 3*time.Minute)
	arrival(work, 502, "--help", "Q&A <b>{from}</b> \x1b]2;pwned\x07done", time.Minute)
	var got notifySent
	if err := json.Unmarshal([]byte(shown.line(t)), &got); err != nil {
		t.Fatal(err)
	}
	want := notifySent{App: "unibox", Summary: "Work: --help", Body: "Q&amp;A &lt;b&gt;{from}&lt;/b&gt; done", Urgency: "low"}
	if got != want {
		t.Fatalf("notify-send showed %+v, want %+v", got, want)
	}
	env, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(env); !strings.Contains(s, "DISPLAY=:42\n") || !strings.Contains(s, "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus\n") ||
		strings.Contains(s, "hunter2") || strings.Contains(s, "UNIBOX_TEST_MAIL_PASSWORD") {
		t.Fatalf("the notifier's environment:\n%s", s)
	}
}

// {count} is the size of the burst a run is for; a value that starts
// with "-" alone in its argument stays text.
func TestNotifyCountAndDash(t *testing.T) {
	notifySend, shown := fakeNotifySendCmd(t, "")
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyWindow = 50*time.Millisecond, 10*time.Millisecond
		o.NotifyCmd = []string{notifySend, "{count} new", "{from}"}
	})
	waitFor(t, tm, "3 messages")
	arrival(work, 501, "Priya Raman", "one", 3*time.Minute)
	arrival(work, 502, "-u", "two", time.Minute)
	var got notifySent
	if err := json.Unmarshal([]byte(shown.line(t)), &got); err != nil {
		t.Fatal(err)
	}
	if want := (notifySent{Summary: "2 new", Body: " -u"}); got != want {
		t.Fatalf("notify-send showed %+v, want %+v", got, want)
	}
}

// The first form (no placeholder: three arguments appended) is what
// notify-send 0.8 refuses. The refusal is on the status line with its
// reason from stderr, and in the details view.
func TestNotifySendRefusalIsShown(t *testing.T) {
	notifySend, _ := fakeNotifySendCmd(t, "")
	tm := notifiedOnce(t, notifySend, "--app-name=unibox")
	waitFor(t, tm, "notify_cmd: exit status 1: Invalid number of options. (i: details)")
	tm.Send(key("i"))
	waitFor(t, tm, "notify_cmd: last run failed: exit status 1", "  Invalid number of options.")
}

// A notifier's stderr is shown without its terminal escapes.
func TestNotifyStderrIsSanitised(t *testing.T) {
	bad := script(t, t.TempDir(), "notify", "printf 'earlier\\n\\033]2;pwned\\007\\033[31mbad\\033[0m day\\n' >&2\nexit 3\n")
	tm := notifiedOnce(t, bad, "{subject}")
	waitFor(t, tm, "notify_cmd: exit status 3: bad day (i: details)")
	tm.Send(key("i"))
	waitFor(t, tm, "  earlier", "  bad day")
	if v := final(t, tm); !strings.Contains(v, "bad day") || strings.Contains(v, "pwned") || strings.Contains(v, "\x1b") {
		t.Fatalf("a terminal escape reached the screen: %q", v)
	}
}

// notifiedOnce runs the TUI with notify_cmd argv over one account, and
// brings it one new unread message.
func notifiedOnce(t *testing.T, argv ...string) *teatest.TestModel {
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 100, 30, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyCmd = 50*time.Millisecond, argv
	})
	waitFor(t, tm, "3 messages")
	arrival(work, 501, "Priya Raman", "hello", time.Minute)
	return tm
}
