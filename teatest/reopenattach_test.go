package teatest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// A draft keeps its attached files when it is reopened from D: kept as a
// draft and reopened in another unibox after the file itself is gone
// (its copy in the draft's folder is what goes), or postponed to the
// server's Drafts and reopened from there (the parts come back from the
// server). Either way the review lists the file and Bob receives it
// whole, through a real SMTP server into a real INBOX.
func TestReopenedDraftKeepsItsFiles(t *testing.T) {
	pdf := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("menu "), 400)...)
	for _, tc := range []struct {
		name, leave, left, row string
	}{
		{"kept, the file gone, another unibox", "esc", "kept as a draft", "draft · Work · reply · to Bob <bob@example.com> · Re: lunch?"},
		{"postponed to Drafts", "p", "draft postponed", "in Drafts · Work · to Bob <bob@example.com> · Re: lunch?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "menu.pdf")
			if err := os.WriteFile(file, pdf, 0o644); err != nil {
				t.Fatal(err)
			}
			srv, smtp, set, box, runner := mailWorld(t)
			room := &tui.Mailroom{Box: box, Runner: runner, Editor: attachEditor(t, "Menu attached.", file)}
			opts := func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now }
			tm, first := run(t, uiAccounts(set), 120, 30, opts)
			waitFor(t, tm, "lunch?")
			tm.Send(key("enter"))
			waitFor(t, tm, "Noon?")
			tm.Send(key("r"))
			waitFor(t, tm, "review · y send", "Menu attached.", "menu.pdf (application/pdf, 2 kB)")
			tm.Send(key(tc.leave))
			waitFor(t, tm, tc.left)
			final(t, tm)
			first.Close() // its watch of the outbox ends with it, as a unibox that quit
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}

			again, _ := run(t, uiAccounts(set), 120, 30, opts)
			waitFor(t, again, "lunch?")
			again.Send(key("D"))
			waitFor(t, again, tc.row)
			again.Send(key("enter"))
			waitFor(t, again, "review · y send", "menu.pdf (application/pdf, 2 kB)", "Menu attached.")
			again.Send(key("y"))
			waitFor(t, again, "sent: Re: lunch?")
			bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
			if len(bob) != 1 || smtp.Deliveries() != 1 {
				t.Fatalf("bob's INBOX %d, deliveries %d: want 1", len(bob), smtp.Deliveries())
			}
			if mt, parts := attachedParts(t, bob[0].Raw); mt != "multipart/mixed" || !bytes.Equal(parts["menu.pdf"], pdf) {
				t.Errorf("Content-Type %s, parts %v: want menu.pdf whole", mt, keys(parts))
			}
		})
	}
}
