package teatest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// attachEditor is an editor that fills an empty To with Bob, adds an
// Attach line per path at the end of the header block, and a line of
// text under it, as a person would; run again, it changes nothing.
func attachEditor(t *testing.T, text string, paths ...string) string {
	t.Helper()
	var lines string
	for _, p := range paths {
		lines += "Attach: " + p + `\n`
	}
	script := "#!/bin/sh\ngrep -q '^Attach:' \"$1\" && exit 0\nsed -i -e 's/^To: *$/To: Bob <bob@example.com>/' -e '0,/^$/s|^$|" + lines + `\n` + text + "|' \"$1\"\n"
	path := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// attachedParts reads a delivered message's attachments: name → bytes.
func attachedParts(t *testing.T, raw []byte) (string, map[string][]byte) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	mt, _, _ := r.Header.ContentType()
	out := map[string][]byte{}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*mail.AttachmentHeader); ok {
			name, _ := h.Filename()
			out[name], _ = io.ReadAll(p.Body)
		}
	}
	return mt, out
}

// An Attach line in the editor's header block attaches the file to a new
// message, a reply or a forward alike: the review lists its name, the
// type its content shows (a PDF named .dat) and its size, and Bob
// receives multipart/mixed with the file's bytes, through a real SMTP
// server into a real INBOX.
func TestAttachLineSendsTheFile(t *testing.T) {
	pdf := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("0123456789"), 3000)...)
	for _, tc := range []struct {
		name, key, subject string
		inMessage          bool
	}{
		{"new", "c", "", false},
		{"reply", "r", "Re: lunch?", true},
		{"forward", "F", "Fwd: lunch?", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "menu.dat")
			if err := os.WriteFile(file, pdf, 0o644); err != nil {
				t.Fatal(err)
			}
			srv, smtp, set, box, runner := mailWorld(t)
			room := &tui.Mailroom{Box: box, Runner: runner, Editor: attachEditor(t, "Menu attached.", file)}
			tm, _ := run(t, uiAccounts(set), 120, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
			waitFor(t, tm, "lunch?")
			if tc.inMessage {
				tm.Send(key("enter"))
				waitFor(t, tm, "Noon?")
			}
			tm.Send(key(tc.key))
			if tc.key != "r" {
				waitFor(t, tm, "esc cancel") // To: first; the editor fills it
				tm.Send(key("enter"))
			}
			waitFor(t, tm, "review · y send", "Attach:", "menu.dat (application/pdf, 29 kB) from "+file[:20])
			tm.Send(key("y"))
			waitFor(t, tm, "sent: ")
			bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
			if len(bob) != 1 || smtp.Deliveries() != 1 {
				t.Fatalf("bob's INBOX %d, deliveries %d: want 1", len(bob), smtp.Deliveries())
			}
			if !bytes.Contains(bob[0].Raw, []byte("Subject: "+tc.subject)) || !bytes.Contains(bob[0].Raw, []byte("Menu attached.")) {
				t.Errorf("the message lacks its subject or text:\n%.600s", bob[0].Raw)
			}
			mt, parts := attachedParts(t, bob[0].Raw)
			if mt != "multipart/mixed" || !bytes.Equal(parts["menu.dat"], pdf) {
				t.Errorf("Content-Type %s, parts %v: want multipart/mixed with menu.dat whole", mt, keys(parts))
			}
		})
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A missing file is refused with its line named, on the review, before
// anything is sent; the rest of the draft (its other file, its text) is
// kept on screen and on disk, and a corrected file sends.
func TestAttachMissingFileRefusedOnReview(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(good, []byte("the notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "agenda.pdf")
	w, box := lunchWriter(t)
	room := &tui.Mailroom{Box: box, Editor: attachEditor(t, "Both attached.", good, missing), SendDelay: 10 * time.Second}
	tm, _ := run(t, []tui.Account{w}, 140, 30, func(o *tui.Options) { o.Mailroom = room })
	replyToLunch(t, tm)
	waitFor(t, tm, "cannot send: Attach: "+missing+": no such file or directory", "notes.txt (text/plain; charset=utf-8, 10 B)", "Both attached.")
	tm.Send(key("y"))
	tm.Send(key("k")) // a key after y: y was taken, or ignored, before it
	if es, _ := box.Entries(); len(es) != 0 {
		t.Fatalf("a draft naming a missing file was queued: %+v", es)
	}
	ds, _ := box.Drafts()
	if len(ds) != 1 {
		t.Fatalf("drafts %+v: want the one", ds)
	}
	_, text, err := box.Draft(ds[0].ID)
	if err != nil || !strings.Contains(string(text), "Attach: "+missing) || !strings.Contains(string(text), "Both attached.") {
		t.Fatalf("the draft's text lost something (%v):\n%s", err, text)
	}
	if err := os.WriteFile(missing, []byte("%PDF-1.4 agenda"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.Send(key("e")) // the editor runs again: its sed changes nothing more
	waitFor(t, tm, "agenda.pdf (application/pdf, 15 B)")
	tm.Send(key("y"))
	waitFor(t, tm, "sending in 10s")
	if es, _ := box.Entries(); len(es) != 1 {
		t.Fatalf("the outbox holds %d entries, want the one sent once mended", len(es))
	}
}

// A message whose encoded size is over the SIZE its account's server
// last announced (remembered by the outbox when it last sent) is refused
// on the review before anything is sent, though each file alone fits;
// before any SIZE is known, 25 MB is the limit and the same message goes.
func TestReviewRefusesOverTheServersSize(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.bin", "b.bin"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte{0xfe, 0x01}, 3<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, tc := range []struct {
		name  string
		size  int64 // remembered SIZE; -1: none known
		shows string
	}{
		{"over the announced SIZE", 10 << 10, "cannot send: too big to send: the message is 17 kB once encoded, over the 10 kB the account's server takes (its SMTP SIZE)"},
		{"no SIZE known yet", -1, "every recipient has been written to before"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, box := lunchWriter(t)
			if tc.size >= 0 {
				if err := box.NoteSMTPSize("Work", tc.size); err != nil {
					t.Fatal(err)
				}
			}
			room := &tui.Mailroom{Box: box, Editor: attachEditor(t, "Two files.", paths...), SendDelay: 10 * time.Second}
			tm, _ := run(t, []tui.Account{w}, 180, 30, func(o *tui.Options) { o.Mailroom = room })
			replyToLunch(t, tm)
			waitFor(t, tm, tc.shows, "a.bin (application/octet-stream, 6 kB)", "b.bin")
			tm.Send(key("y"))
			if tc.size < 0 {
				waitFor(t, tm, "sending in 10s")
				return
			}
			tm.Send(key("x"))
			waitFor(t, tm, "x again discards this draft")
			if es, _ := box.Entries(); len(es) != 0 {
				t.Fatalf("a message over the server's SIZE was queued: %+v", es)
			}
		})
	}
}

// On the review, a asks for a path (keys are its text there: ? is typed,
// not the help), tab completes it, enter attaches the file, and y sends
// it: Bob gets it through a real SMTP server.
func TestAttachKeyOnTheReview(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "menu?.pdf")
	pdf := []byte("%PDF-1.4 the menu")
	if err := os.WriteFile(file, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	// Were ? the help, "menu" would complete to both, and attach neither.
	if err := os.WriteFile(filepath.Join(dir, "menu.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, smtp, set, box, runner := mailWorld(t)
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: editorScript(t, "Menu attached.")}
	tm, _ := run(t, uiAccounts(set), 120, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now })
	answerLunch(t, tm, "Menu attached.")
	tm.Send(key("a"))
	waitFor(t, tm, "attach a file · enter attaches · tab completes · esc cancels")
	for _, r := range dir + "/menu?" {
		tm.Send(key(string(r)))
	}
	tm.Send(key("tab"))
	waitFor(t, tm, "menu?.pdf")
	tm.Send(key("enter"))
	waitFor(t, tm, "attached menu?.pdf", "menu?.pdf (application/pdf, 17 B)")
	tm.Send(key("y"))
	waitFor(t, tm, "sent: Re: lunch?")
	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	if len(bob) != 1 || smtp.Deliveries() != 1 {
		t.Fatalf("bob's INBOX %d, deliveries %d: want 1", len(bob), smtp.Deliveries())
	}
	if mt, parts := attachedParts(t, bob[0].Raw); mt != "multipart/mixed" || !bytes.Equal(parts["menu?.pdf"], pdf) {
		t.Errorf("Content-Type %s, parts %v", mt, keys(parts))
	}
}
