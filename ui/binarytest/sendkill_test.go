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

	"unibox/accounts/dispatch"
	"unibox/accounts/outbox"
	"unibox/accounts/testservers/memimap"
	"unibox/ui/launch"
)

// killPatience bounds every wait of the kill tests: generous, for a
// loaded machine; the waits end on events long before.
const killPatience = time.Minute

// A kill -9 of the real `unibox send` at each step of SMTP and the copy
// in Sent loses nothing and sends nothing twice: the text stays in the
// outbox on disk, in the state the step had written; a second `unibox
// send` of another message goes out beside it without touching it; and
// the next unibox's dispatch (Run, as at start) turns a send cut while
// its body was out into "unknown" (never sent again) and finishes one
// cut after the 250 by filing the copy in Sent once.
func TestSendKilledMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildUnibox(t)
	tests := []struct {
		name string
		// arm makes the world stop at the step; it returns when the
		// binary stands there, and what to do once it is dead.
		arm        func(w *mailWorld, faults *memimap.Faults) (held <-chan struct{}, afterKill func(t *testing.T, w *mailWorld, id string))
		killed     outbox.State // the entry's state on disk after the kill
		resumed    outbox.State // after the next unibox's dispatch ("" gone: done)
		sentCopies int
	}{
		{name: "SMTP holding the reply to the dot",
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
			killed: outbox.StateSending, resumed: outbox.StateUnknown},
		{name: "after the 250, before the Sent APPEND",
			arm: func(_ *mailWorld, faults *memimap.Faults) (<-chan struct{}, func(*testing.T, *mailWorld, string)) {
				h := faults.HoldNext("APPEND")
				return h.Held, func(*testing.T, *mailWorld, string) { h.Release(false) } // it never happened
			},
			killed: outbox.StateSent, sentCopies: 1},
		{name: "the Sent APPEND carried out, its answer lost",
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
			killed: outbox.StateSent, sentCopies: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			faults := &memimap.Faults{}
			w := memWorld(t, faults)
			cfg := w.config(t)
			held, afterKill := tt.arm(w, faults)

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
			if len(es) != 1 || es[0].State != tt.killed {
				t.Fatalf("after the kill the outbox holds %+v, want one entry %s", es, tt.killed)
			}
			killed := es[0]
			root := filepath.Join(os.Getenv("XDG_DATA_HOME"), "unibox", "outbox")
			for _, ext := range []string{".wire", ".saved"} {
				if b, err := os.ReadFile(filepath.Join(root, killed.ID+ext)); err != nil || !bytes.Contains(b, []byte("See you at noon (killed)")) {
					t.Fatalf("the text is not on disk in %s%s: %v\n%s", killed.ID, ext, err, b)
				}
			}
			afterKill(t, w, killed.MessageID)

			// Another message goes out beside it, and leaves it be.
			out, code, stderr := w.runSend(t, bin, cfg, letter("next"))
			if code != 0 || out.Outcome != "sent" {
				t.Fatalf("the next send: exit %d, %+v\n%s", code, out, stderr)
			}
			if es := outboxNow(t); len(es) != 1 || es[0].ID != killed.ID || es[0].State != tt.killed {
				t.Fatalf("after the next send the outbox holds %+v, want the killed entry as it was", es)
			}

			// The next unibox's dispatch, on the same outbox folder.
			left := resumeDispatch(t, w, cfg, func(es []outbox.Entry) bool {
				if tt.resumed == "" {
					return len(es) == 0
				}
				return len(es) == 1 && es[0].State == tt.resumed
			})
			inbox := w.inbox(t, killed.MessageID)
			sent, seen := w.sent(t, killed.MessageID)
			if inbox != 1 || w.smtp.Deliveries() != 2 || sent != tt.sentCopies || !seen {
				t.Errorf("bob's INBOX %d, deliveries %d (the next one included), Sent %d (all \\Seen: %v): want 1, 2, %d",
					inbox, w.smtp.Deliveries(), sent, seen, tt.sentCopies)
			}
			if tt.resumed != "" && left[0].ID != killed.ID {
				t.Errorf("the outbox holds %+v, want the killed entry", left)
			}
		})
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
		accts = append(accts, a)
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
