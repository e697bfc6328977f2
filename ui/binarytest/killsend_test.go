package binarytest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/memimap"
)

// replyKill is one moment of a reply's way out at which unibox is killed.
type replyKill struct {
	name  string
	delay string // [compose] send_delay
	// block: the editor saves its text, then waits on a fifo, and is
	// killed with unibox; otherwise it writes its line and exits.
	block bool
	// arm, when set, makes the step hold before y is pressed: reached
	// returns once unibox stands at the step, afterKill lets go of what
	// was held once unibox is dead. nil: y is not pressed.
	arm func(t *testing.T, w *replyWorld, s *tmuxScreen) (reached, afterKill func())
	// onDisk is where the text is after the kill ("drafts", "outbox"),
	// and state the entry's state there.
	onDisk, state string
	// header is what the restarted unibox says waits.
	header string
	// rearm holds the restart before it finishes, so its header is read
	// first; release lets it go on. nil: nothing to hold.
	rearm func(t *testing.T, w *replyWorld) (release func())
	// delivered: how many times the SMTP server took the message when
	// unibox was killed; finishes: the restart takes it to the end (in
	// Sent, \Answered). Otherwise it stays as the kill left it.
	delivered int
	finishes  bool
}

// A kill -9 of the real binary at each step of a reply loses no text:
// in the editor, on the review screen, during the countdown, during SMTP
// (the body sent, the dot never answered), after the 250 and before the
// Sent APPEND, after the APPEND and before \Answered. After each the text
// is on disk (the draft, or the outbox entry), a restart says so in the
// header, and the message ends sent exactly once, or unknown, never
// twice; after the 250 the restart files the copy and sets the flag
// without sending again. memimap's holds stop the IMAP steps on the
// server, where unibox cannot tell them from a slow server.
func TestKillNineLosesNoText(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel() // no t.Setenv: each run has its own folders; waits, mostly
	steps := []replyKill{
		// First: the longest (it waits out send_delay), so that the
		// others run beside it. 10 s leaves the restart time to show it
		// waiting before it goes.
		{name: "during the countdown", delay: "10s", onDisk: "outbox", state: "queued", header: "1 in outbox", finishes: true,
			arm: func(t *testing.T, w *replyWorld, s *tmuxScreen) (func(), func()) {
				return func() { s.waitFor("sending in", 10*time.Second) }, func() {}
			}},
		{name: "in the editor", delay: "0s", block: true, onDisk: "drafts", header: "1 unsent draft"},
		{name: "on the review screen", delay: "0s", onDisk: "drafts", header: "1 unsent draft"},
		{name: "during SMTP", delay: "0s", onDisk: "outbox", state: "sending", header: "1 may have been sent", delivered: 1,
			arm: func(t *testing.T, w *replyWorld, s *tmuxScreen) (func(), func()) {
				w.smtp.HangAfterDot(1, true) // delivered, the dot never answered
				return func() {
					eventually(t, "the message delivered", 20*time.Second, func() bool { return w.smtp.Deliveries() == 1 })
				}, func() {}
			}},
		{name: "after the 250, before the Sent APPEND", delay: "0s", onDisk: "outbox", state: "sent", header: "1 in outbox",
			delivered: 1, finishes: true, arm: holdStep("APPEND", false), rearm: holdRestart("APPEND")},
		// The APPEND was on the wire when unibox died, and the server
		// carries it out: the restart finds the copy and files no other.
		{name: "during the Sent APPEND", delay: "0s", onDisk: "outbox", state: "sent", header: "1 in outbox",
			delivered: 1, finishes: true, arm: holdStep("APPEND", true), rearm: holdRestart("STORE")},
		{name: "after the APPEND, before Answered", delay: "0s", onDisk: "outbox", state: "saved", header: "1 in outbox",
			delivered: 1, finishes: true, arm: holdStep("STORE", false), rearm: holdRestart("STORE")},
	}
	bin := buildUnibox(t) // once, before the steps run side by side
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel()
			killAt(t, bin, st)
		})
	}
}

// killAt writes a reply, kills unibox at st, checks the disk, restarts
// it and follows the message to its end.
func killAt(t *testing.T, bin string, st replyKill) {
	w := replyMemWorld(t, "always")
	line := "Yes, noon works."
	editor, pidFile := writerEditor(t, line), ""
	if st.block {
		editor, pidFile = blockingEditor(t, line)
	}
	r := newSendRun(t, w, editor, st.delay)
	s := r.start()
	openReply(s)
	if st.block {
		eventually(t, "the editor saved its text", 20*time.Second, func() bool { b, _ := os.ReadFile(pidFile); return len(b) > 0 })
	} else {
		s.waitFor(line, 20*time.Second)
		s.waitFor("review · y send", 5*time.Second)
	}
	afterKill := func() {}
	if st.arm != nil {
		var reached func()
		reached, afterKill = st.arm(t, w, s)
		s.keys("y")
		reached()
	}
	s.kill9()
	if st.block {
		killPidFile(t, pidFile)
	}
	afterKill()

	// The text is on disk, where the step left it.
	if r.fileWith(st.onDisk, map[string]string{"drafts": ".eml", "outbox": ".wire"}[st.onDisk], line) == "" {
		t.Fatalf("after kill -9 %s, no file in %s holds the text; drafts %v, outbox %v", st.name, st.onDisk, r.files("drafts"), r.files("outbox"))
	}
	if st.state != "" {
		if got := r.entryState(t); got != st.state {
			t.Fatalf("after kill -9 %s the entry is %q on disk, want %q", st.name, got, st.state)
		}
	}
	if got := w.smtp.Deliveries(); got != st.delivered {
		t.Fatalf("after kill -9 %s the SMTP server took %d messages, want %d", st.name, got, st.delivered)
	}

	release := func() {}
	if st.rearm != nil {
		release = st.rearm(t, w)
	}
	s = r.start()
	s.waitFor(st.header, 30*time.Second)
	release()
	switch {
	case st.finishes:
		eventually(t, "the outbox and the draft done with", 60*time.Second, func() bool { return len(r.files("outbox"))+len(r.files("drafts")) == 0 })
		landedOnce(t, w, line) // sent once, filed once, \Answered
	case st.onDisk == "outbox": // unknown: kept for a person to decide
		if got := r.entryState(t); got != string(outbox.StateUnknown) {
			t.Fatalf("the restart left the entry %q, want unknown", got)
		}
		if w.smtp.MailCommands() != 1 || w.smtp.Deliveries() != 1 {
			t.Fatalf("a message that may have been sent was sent again: %d MAIL, %d delivered", w.smtp.MailCommands(), w.smtp.Deliveries())
		}
	default: // a draft stays a draft
		if w.smtp.MailCommands() != 0 || r.fileWith("drafts", ".eml", line) == "" {
			t.Fatalf("the draft: %d MAIL commands, drafts %v", w.smtp.MailCommands(), r.files("drafts"))
		}
	}
}

// blockingEditor saves line into the draft as writerEditor does, writes
// its pid to a file, and waits on a fifo nobody opens: an editor still
// open when unibox is killed.
func blockingEditor(t *testing.T, line string) (editor, pidFile string) {
	t.Helper()
	dir := t.TempDir()
	fifo, pidFile := filepath.Join(dir, "fifo"), filepath.Join(dir, "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return editorFile(t, "sed -i '0,/^$/s//\\n"+line+"/' \"$1\"\necho $$ >"+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"\nread x <"+fifo+"\n"), pidFile
}

// killPidFile kills the process whose pid the file holds (SIGKILL).
func killPidFile(t *testing.T, path string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("editor pid %q: %v", b, err)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL) // may be gone already (SIGHUP from the closing pane)
}

// kill9 kills the real binary (the pane's process) with SIGKILL, and
// waits until it is gone.
func (s *tmuxScreen) kill9() {
	s.t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(s.tmux("display", "-p", "-t", "%t", "#{pane_pid}")))
	if err != nil {
		s.t.Fatalf("the pane's pid: %v", err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		s.t.Fatalf("kill -9 %d: %v", pid, err)
	}
	eventually(s.t, "unibox gone after kill -9", 10*time.Second, func() bool {
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
	})
}

// entryState is the state of the one outbox entry on disk.
func (r *sendRun) entryState(t *testing.T) string {
	t.Helper()
	for _, n := range r.files("outbox") {
		if !strings.HasSuffix(n, ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(r.data, "outbox", n))
		if err != nil {
			t.Fatal(err)
		}
		var e outbox.Entry
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		return string(e.State)
	}
	return ""
}

// holdOnce releases a memimap hold once, by the step or the cleanup (a
// held command would block the server's Close).
func holdOnce(t *testing.T, h *memimap.Hold) func(run bool) {
	var once sync.Once
	release := func(run bool) { once.Do(func() { h.Release(run) }) }
	t.Cleanup(func() { release(false) })
	return release
}

// holdStep holds the sender's next cmd on the server; once unibox is
// dead the server carries it out (run) or refuses it: the step happened
// behind the dead client's back, or never.
func holdStep(cmd string, run bool) func(t *testing.T, w *replyWorld, s *tmuxScreen) (func(), func()) {
	return func(t *testing.T, w *replyWorld, s *tmuxScreen) (func(), func()) {
		h := w.faults.HoldNext(cmd)
		release := holdOnce(t, h)
		return func() { waitHeld(t, h, cmd) }, func() {
			release(run)
			if run { // carried out before the restart looks
				eventually(t, "the held "+cmd+" carried out", 10*time.Second, func() bool { return len(w.folder(t, "sender", "Sent")) == 1 })
			}
		}
	}
}

// holdRestart holds cmd again for the restart, and lets it run when
// released.
func holdRestart(cmd string) func(t *testing.T, w *replyWorld) func() {
	return func(t *testing.T, w *replyWorld) func() {
		h := w.faults.HoldNext(cmd)
		release := holdOnce(t, h)
		return func() { waitHeld(t, h, cmd); release(true) }
	}
}

func waitHeld(t *testing.T, h *memimap.Hold, cmd string) {
	t.Helper()
	select {
	case <-h.Held:
	case <-time.After(30 * time.Second):
		t.Fatalf("unibox never sent %s", cmd)
	}
}
