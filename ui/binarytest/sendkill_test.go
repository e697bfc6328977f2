package binarytest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/launch"
)

// killPatience bounds every wait of the kill tests: generous, for a
// loaded machine; the waits end on events long before.
const killPatience = time.Minute

// A kill -9 of the real `unibox send` at each step of SMTP and the copy
// in Sent loses nothing and sends nothing twice: the text stays in the
// outbox on disk, in the state the step had written; a second `unibox
// send` of another message goes out beside it, turning a send cut while
// its body was out into "unknown" (and saying so) and leaving one cut
// after the 250 as it was; and the next unibox's dispatch (Run, as at
// start) never sends the unknown one again and finishes the other by
// filing the copy in Sent once. The step at the dot runs on Dovecot too.
func TestSendKilledMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	tests := []killStep{
		{name: "reply to the dot held", // SMTP
			arm: func(w *mailWorld, _ *memimap.Faults) (<-chan struct{}, func(*testing.T, *mailWorld, string)) {
				w.smtp.HangAfterDot(1, true) // delivered, then no answer
				held := make(chan struct{})
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), killPatience)
					defer cancel()
					if w.smtp.AwaitDeliveries(ctx, 1) == nil {
						close(held)
					}
				}()
				return held, func(*testing.T, *mailWorld, string) {}
			},
			dovecot: true, killed: outbox.StateSending, next: outbox.StateUnknown, resumed: outbox.StateUnknown},
		{name: "before the Sent APPEND", // after the 250
			arm: func(_ *mailWorld, faults *memimap.Faults) (<-chan struct{}, func(*testing.T, *mailWorld, string)) {
				h := faults.HoldNext("APPEND")
				return h.Held, func(*testing.T, *mailWorld, string) { h.Release(false) } // it never happened
			},
			killed: outbox.StateSent, next: outbox.StateSent, sentCopies: 1},
		{name: "APPEND answer lost", // carried out by the server
			arm: func(_ *mailWorld, faults *memimap.Faults) (<-chan struct{}, func(*testing.T, *mailWorld, string)) {
				h := faults.HoldNext("APPEND")
				return h.Held, func(t *testing.T, w *mailWorld, id string) {
					h.Release(true) // the server stores it after its client died
					deadline := time.Now().Add(killPatience)
					for n, _ := w.sent(t, id); n == 0; n, _ = w.sent(t, id) {
						if time.Now().After(deadline) {
							t.Fatal("the held APPEND never landed")
						}
						time.Sleep(20 * time.Millisecond)
					}
				}
			},
			killed: outbox.StateSent, next: outbox.StateSent, sentCopies: 1},
	}
	for _, tt := range tests {
		// Short names: Dovecot's sockets live in the test's temp folder,
		// named after the test, and a socket's path has 108 bytes.
		t.Run(tt.name, func(t *testing.T) {
			t.Run("memimap", func(t *testing.T) {
				faults := &memimap.Faults{}
				killAndResume(t, bin, memWorld(t, faults), faults, tt)
			})
			if tt.dovecot {
				t.Run("dovecot", func(t *testing.T) { killAndResume(t, bin, dovecotWorld(t), nil, tt) })
			}
		})
	}
}

// killStep is a step of sending at which unibox send is killed.
type killStep struct {
	name string
	// arm makes the world stop at the step; it returns when the binary
	// stands there, and what to do once it is dead.
	arm        func(w *mailWorld, faults *memimap.Faults) (held <-chan struct{}, afterKill func(t *testing.T, w *mailWorld, id string))
	dovecot    bool         // on Dovecot too
	killed     outbox.State // the entry's state on disk after the kill
	next       outbox.State // after another unibox send
	resumed    outbox.State // after the next unibox's dispatch ("" gone: done)
	sentCopies int
}

// killAndResume runs unibox send until arm says it stands at its step,
// kills it, and checks the outbox after the kill (killed), after another
// unibox send (next) and after the next unibox's dispatch (resumed).
func killAndResume(t *testing.T, bin string, w *mailWorld, faults *memimap.Faults, k killStep) {
	cfg := w.config(t)
	held, afterKill := k.arm(w, faults)

	cmd := w.sendCmd(bin, cfg, letter("killed"))
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, io.Discard
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	// Its serve-imap child outlives it for a moment: end the group.
	t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
	select {
	case <-held:
	case <-time.After(killPatience):
		t.Fatal("unibox send never reached the step")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("unibox send was not killed: %v\n%s", err, stdout.String())
	}
	es := outboxNow(t)
	if len(es) != 1 || es[0].State != k.killed {
		t.Fatalf("after the kill the outbox holds %+v, want one entry %s", es, k.killed)
	}
	entry := es[0]
	root := filepath.Join(os.Getenv("XDG_DATA_HOME"), "unibox", "outbox")
	for _, ext := range []string{".wire", ".saved"} {
		if b, err := os.ReadFile(filepath.Join(root, entry.ID+ext)); err != nil || !bytes.Contains(b, []byte("See you at noon (killed)")) {
			t.Fatalf("the text is not on disk in %s%s: %v\n%s", entry.ID, ext, err, b)
		}
	}
	afterKill(t, w, entry.MessageID)

	// Another message goes out beside it; the killed one is
	// recovered (never sent), and the person told.
	out, code, stderr := w.runSend(t, bin, cfg, letter("next"))
	if code != 0 || out.Outcome != "sent" {
		t.Fatalf("the next send: exit %d, %+v\n%s", code, out, stderr)
	}
	if es := outboxNow(t); len(es) != 1 || es[0].ID != entry.ID || es[0].State != k.next {
		t.Fatalf("after the next send the outbox holds %+v, want the killed entry, %s", es, k.next)
	}
	if told := strings.Contains(stderr, entry.MessageID+">, from a unibox stopped while sending it, may have been sent"); told != (k.next == outbox.StateUnknown) {
		t.Errorf("the next send's stderr (told %v):\n%s", told, stderr)
	}

	// The next unibox's dispatch, on the same outbox folder.
	left := resumeDispatch(t, w, cfg, func(es []outbox.Entry) bool {
		if k.resumed == "" {
			return len(es) == 0
		}
		return len(es) == 1 && es[0].State == k.resumed
	})
	inbox := w.inbox(t, entry.MessageID)
	sent, seen := w.sent(t, entry.MessageID)
	if inbox != 1 || w.smtp.Deliveries() != 2 || sent != k.sentCopies || !seen {
		t.Errorf("bob's INBOX %d, deliveries %d (the next one included), Sent %d (all \\Seen: %v): want 1, 2, %d",
			inbox, w.smtp.Deliveries(), sent, seen, k.sentCopies)
	}
	if k.resumed != "" && left[0].ID != entry.ID {
		t.Errorf("the outbox holds %+v, want the killed entry", left)
	}
}

// resumeDispatch opens the config's accounts and outbox as the next
// unibox does and runs dispatch (recovery first, then the workers) until
// done says the outbox is as expected; it returns the outbox then.
func resumeDispatch(t *testing.T, w *mailWorld, cfg string, done func([]outbox.Entry) bool) []outbox.Entry {
	t.Helper()
	t.Setenv("UNIBOX_SEND_PW", w.pass)
	env, err := launch.Open(cfg, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	box, err := env.Outbox()
	if err != nil {
		t.Fatal(err)
	}
	var accts []dispatch.Account
	for _, a := range env.Set.Accounts {
		accts = append(accts, a.Sending())
	}
	r := dispatch.New(box, accts, dispatch.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- r.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-ran; err != nil {
			t.Errorf("dispatch: %v", err)
		}
	}()
	deadline := time.After(killPatience)
	for {
		es, err := box.Entries()
		if err != nil {
			t.Fatal(err)
		}
		if done(es) {
			return es
		}
		select {
		case <-r.Changed():
		case <-deadline:
			t.Fatalf("dispatch left the outbox at %+v", es)
		}
	}
}
