package teatest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/ui/tui"
)

// notify_cmd runs on new unread mail with the account, the sender and the
// subject as its last three arguments, each one clean line; a burst in one
// listing is one run ("and N more"), and a second burst within the window
// waits for it.
func TestNotifyCmd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "calls")
	script := filepath.Join(dir, "notify")
	// One line per argument, a blank line per run; slowly, as a real
	// notifier may be: the test must not read a run half written.
	if err := os.WriteFile(script, []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> "+out+"; sleep 0.02; done\necho >> "+out+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	work := newFake("Work", connected, msgs("Work", 3, time.Hour)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) {
		o.RefreshInterval, o.NotifyCmd, o.NotifyWindow = 50*time.Millisecond, []string{script, "--app", "unibox"}, 500*time.Millisecond
	})
	waitFor(t, tm, "3 messages")
	arrive := func(uid uint32, from, subject string, age time.Duration) {
		work.mu.Lock()
		m := model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uid},
			From: model.Address{Name: from, Address: "x@example.com"}, Subject: subject, Date: now.Add(-age)}
		work.page.Messages = append([]model.Message{m}, work.page.Messages...)
		work.mu.Unlock()
	}
	arrive(501, "Priya Raman", "older of the burst", 3*time.Minute)
	arrive(502, "--help", "Deploy \x1b]2;pwned\x07done\x1b[31m", time.Minute)
	waitRuns := func(n int) []string {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			// Only runs that ended (their blank line) count: the script
			// may be writing the next one as the file is read.
			b, _ := os.ReadFile(out)
			if end := strings.LastIndex(string(b), "\n\n"); end >= 0 {
				if runs := strings.Split(string(b[:end]), "\n\n"); len(runs) >= n {
					return runs
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("notify_cmd ran fewer than %d times: %q", n, b)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	first := strings.Split(waitRuns(1)[0], "\n")
	if len(first) != 5 || first[0] != "--app" || first[2] != "Work" || first[3] != " --help" || !strings.HasPrefix(first[4], "Deploy ") ||
		!strings.HasSuffix(first[4], "(and 1 more)") || strings.ContainsAny(first[4], "\x1b\x07") {
		t.Fatalf("first run's arguments: %q", first)
	}
	arrive(503, "Ann", "second burst", 0)
	second := strings.Split(waitRuns(2)[1], "\n")
	if second[len(second)-1] != "second burst" {
		t.Fatalf("second run's arguments: %q", second)
	}
}
