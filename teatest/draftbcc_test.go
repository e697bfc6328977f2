package teatest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/send/outbox"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// bccEditor is an editor that puts Carol on the draft's Bcc line and a
// sentence above the quote, as a person would.
func bccEditor(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor")
	script := "#!/bin/sh\nsed -i -e 's/^Bcc:.*$/Bcc: Carol <carol@example.com>/' -e '0,/^$/s//\\nCarol is in on it./' \"$1\"\n"
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// A reply with a Bcc, postponed to the server's Drafts and reopened from
// D (or reopened, then unibox restarted and the draft opened and edited
// again), still has its Bcc on the review; sent, the blind recipient receives it, and the delivered
// header block names no Bcc. The copy in Drafts carries the Bcc: it never
// goes out in that form.
func TestPostponedDraftKeepsBcc(t *testing.T) {
	for _, tc := range []struct {
		name    string
		restart bool
	}{{"same session", false}, {"restarted after reopening", true}} {
		t.Run(tc.name, func(t *testing.T) {
			srv, smtp, set, box, runner := mailWorld(t)
			if err := srv.AddUser("carol", "pw", map[string]imap.MailboxAttr{}); err != nil {
				t.Fatal(err)
			}
			room := &tui.Mailroom{Box: box, Runner: runner, Editor: bccEditor(t)}
			tm, m := run(t, uiAccounts(set), 100, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
			waitFor(t, tm, "lunch?")
			tm.Send(key("enter"))
			waitFor(t, tm, "Noon?")
			tm.Send(key("r"))
			waitFor(t, tm, "review · y send", "Carol is in on it.", "carol@example.com")
			tm.Send(key("p"))
			waitFor(t, tm, "draft postponed")
			drafts := facetest.Folder(t, srv, "sam", "pw", "Drafts")
			if len(drafts) != 1 || !bytes.Contains(drafts[0].Raw, []byte(`Bcc: "Carol" <carol@example.com>`)) {
				t.Fatalf("the copy in Drafts lacks its Bcc: %d copies\n%s", len(drafts), rawOf(drafts))
			}

			tm.Send(key("D"))
			waitFor(t, tm, "in Drafts · Work · to Bob <bob@example.com> · Re: lunch?")
			tm.Send(key("enter"))
			waitFor(t, tm, "review · y send", "Carol is in on it.", "carol@example.com")
			if tc.restart {
				// Restarted, the local draft is opened again and edited
				// (the editor adds a line and leaves Bcc alone).
				tm = restartTUI(t, tm, m, set, room, editorScript(t, "Edited again."))
				tm.Send(key("D"))
				waitFor(t, tm, "draft · Work · reply · to Bob <bob@example.com> · Re: lunch?")
				tm.Send(key("enter"))
				waitFor(t, tm, "review · y send", "Carol is in on it.", "carol@example.com")
				tm.Send(key("e"))
				waitFor(t, tm, "Edited again.", "carol@example.com")
			}
			tm.Send(key("y"))
			waitFor(t, tm, "sent: Re: lunch?")

			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := smtp.AwaitDeliveries(ctx, 1); err != nil {
				t.Fatal(err)
			}
			got := smtp.Delivered()[0]
			if !slices.Contains(got.Rcpt, "carol@example.com") || !slices.Contains(got.Rcpt, "bob@example.com") {
				t.Fatalf("the envelope's recipients are %q: want Bob and Carol", got.Rcpt)
			}
			head, _, _ := bytes.Cut(got.Data, []byte("\r\n\r\n"))
			// A Bcc header line, not "bcc" anywhere: the Message-ID's random
			// hex holds "bcc" in about one run of 150.
			if bytes.HasPrefix(bytes.ToLower(head), []byte("bcc:")) || bytes.Contains(bytes.ToLower(head), []byte("\nbcc:")) ||
				bytes.Contains(head, []byte("carol")) {
				t.Fatalf("the delivered header block names the blind recipient:\n%s", head)
			}
			carol := facetest.Folder(t, srv, "carol", "pw", "INBOX")
			if len(carol) != 1 || !bytes.Contains(carol[0].Raw, []byte("Carol is in on it.")) {
				t.Fatalf("carol received %d messages", len(carol))
			}
		})
	}
}

// restartTUI quits the running TUI and starts another over the same
// data directory (the outbox opened again from its root) and accounts,
// with editor.
func restartTUI(t *testing.T, tm *teatest.TestModel, m *tui.Model, set *accounts.Set, room *tui.Mailroom, editor string) *teatest.TestModel {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	m.Close()
	box, err := outbox.Open(room.Box.Root())
	if err != nil {
		t.Fatal(err)
	}
	again := &tui.Mailroom{Box: box, Runner: room.Runner, Editor: editor}
	tm2, _ := run(t, uiAccounts(set), 100, 30, func(o *tui.Options) { o.Mailroom = again; o.Now = time.Now })
	waitFor(t, tm2, "lunch?")
	return tm2
}

func rawOf(ms []facetest.Stored) string {
	var b bytes.Buffer
	for _, m := range ms {
		b.Write(m.Raw)
		b.WriteString("\n----\n")
	}
	return b.String()
}
