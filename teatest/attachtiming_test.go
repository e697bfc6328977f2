package teatest

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// The time from y on the review to the message in Bob's INBOX, for a
// reply with a 5 MB attachment against the same reply without it, in one
// run (send_delay 0): the real TUI, outbox and runner, a real serve-imap
// child, a real SMTP server delivering into a real IMAP INBOX. It logs
// the two times for the note and asserts only that both
// arrived whole: a loaded machine's times are not a test's to judge.
func TestReplyWithAttachmentTiming(t *testing.T) {
	data := make([]byte, 5<<20)
	rng := rand.New(rand.NewPCG(37, 1))
	for i := range data {
		data[i] = byte(rng.UintN(256)) // incompressible, as a PDF or a photo is
	}
	file := filepath.Join(t.TempDir(), "report.bin")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, smtp, set, box, runner := mailWorld(t)
	var took [2]time.Duration
	for i, tc := range []struct {
		name   string
		editor string
		shows  string
	}{
		{"without", editorScript(t, "Plain reply."), "Plain reply."},
		{"with 5 MB", attachEditor(t, "With the report.", file), "report.bin (application/octet-stream, 5.0 MB)"},
	} {
		room := &tui.Mailroom{Box: box, Runner: runner, Editor: tc.editor}
		tm, m := run(t, uiAccounts(set), 120, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
		waitFor(t, tm, "lunch?")
		tm.Send(key("enter"))
		waitFor(t, tm, "Noon?")
		tm.Send(key("r"))
		waitFor(t, tm, "review · y send", tc.shows)
		start := time.Now()
		tm.Send(key("y"))
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a failure bound only
		err := smtp.AwaitDeliveries(ctx, i+1)                                   // delivered is in the INBOX: IntoMemIMAP appends first
		cancel()
		took[i] = time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		waitFor(t, tm, "sent: Re: lunch?")
		final(t, tm)
		m.Close()
	}
	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	if len(bob) != 2 {
		t.Fatalf("bob's INBOX holds %d messages, want 2", len(bob))
	}
	if _, parts := attachedParts(t, bob[1].Raw); !bytes.Equal(parts["report.bin"], data) {
		t.Fatalf("the 5 MB attachment did not arrive whole")
	}
	t.Logf("y to Bob's INBOX: reply %s, reply with a 5 MB attachment %s (%d bytes on the wire)",
		took[0].Round(time.Millisecond), took[1].Round(time.Millisecond), len(bob[1].Raw))
}
