package teatest

import (
	"bytes"
	"context"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/config"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/accounts/store"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/accounts/testservers/unibin"
	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/review"
	"unibox/ui/facetest"
	"unibox/ui/tui"
)

// writer is a fake account that can answer mail; what it postpones is
// kept.
type writer struct {
	*fakeAccount
	drafts  [][]byte
	deleted []uint32
	mu      sync.Mutex
	events  []string // the account's draft history
}

func (w *writer) Identity() (*mail.Address, []string) {
	return &mail.Address{Name: "Sam", Address: "sam@example.com"}, nil
}
func (w *writer) CanSend() error { return nil }
func (w *writer) Signature(context.Context, string) (mailcompose.Signature, error) {
	return mailcompose.Signature{}, nil
}

// Known: Sam has written to Bob before, to nobody else.
func (w *writer) Known(_ context.Context, _ *outbox.Box, _ []string) review.Known {
	return review.Known{Addrs: map[string]bool{review.AddressKey("bob@example.com"): true}}
}
func (w *writer) Part(context.Context, model.MessageID, int) (model.Part, error) {
	return model.Part{}, os.ErrNotExist
}
func (w *writer) Append(_ context.Context, _, _ string, raw []byte, _ []string, _ time.Time) (model.MessageID, error) {
	w.drafts = append(w.drafts, raw)
	return model.MessageID{Account: w.name, Folder: "Drafts", UIDValidity: 1, UID: uint32(len(w.drafts))}, nil
}

func (w *writer) FindMessageID(context.Context, string, string, string) (model.MessageID, bool, error) {
	return model.MessageID{}, false, nil
}
func (w *writer) DraftEvent(actor, verb, what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, actor+" "+verb+" "+what)
}

func (w *writer) history() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.events)
}

func (w *writer) DeleteMessages(_ context.Context, _ string, _ uint32, uids []uint32) ([]model.ItemResult, error) {
	w.deleted = append(w.deleted, uids...)
	return []model.ItemResult{{UID: uids[0]}}, nil
}

// lunchWriter is a fake account holding Bob's "lunch?" (opened, its
// text), able to write, and an outbox in a temp folder.
func lunchWriter(t *testing.T) (*writer, *outbox.Box) {
	t.Helper()
	b := lunch("Work")
	f := newFake("Work", connected, b.Message)
	f.body = b
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &writer{fakeAccount: f}, box
}

// replyToLunch opens "lunch?" and presses reply once its text is shown.
func replyToLunch(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	waitFor(t, tm, "lunch?")
	tm.Send(key("enter"))
	waitFor(t, tm, "Noon at the usual place?")
	tm.Send(key("r"))
}

// answerLunch replies to Bob's "lunch?" in the mail world (mailWorld),
// the editor writing text, up to the review.
func answerLunch(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	waitFor(t, tm, "lunch?")
	tm.Send(key("enter"))
	waitFor(t, tm, "Noon?")
	tm.Send(key("r"))
	waitFor(t, tm, "review · y send", text)
}

// editorScript is an editor that writes its first line of text above
// the quote (after the header block's blank line), as a person would.
func editorScript(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor")
	script := "#!/bin/sh\nsed -i '0,/^$/s//\\n" + text + "/' \"$1\"\n"
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// lunch is the message answered in these tests.
func lunch(account string) model.Body {
	m := model.Message{ID: model.MessageID{Account: account, Folder: "INBOX", UIDValidity: 7, UID: 3}, MessageID: "lunch-1@example.com",
		From: model.Address{Name: "Bob", Address: "bob@example.com"}, To: []model.Address{{Address: "sam@example.com"}},
		Subject: "lunch?", Date: now.Add(-time.Hour)}
	return model.Body{Message: m, Text: "Noon at the usual place?\n"}
}

func TestReviewAndCountdown(t *testing.T) {
	w, box := lunchWriter(t)
	room := &tui.Mailroom{Box: box, Editor: editorScript(t, "Yes, see you there."), SendDelay: 10 * time.Second}
	tm, _ := run(t, []tui.Account{w}, 80, 24, func(o *tui.Options) { o.Mailroom = room })
	replyToLunch(t, tm)
	waitFor(t, tm, "review · y send", "Yes, see you there.")
	tm.Send(key("y"))
	waitFor(t, tm, "sending in 10s · z undo", "1 in outbox")
	es, _ := box.Entries()
	if len(es) != 1 || es[0].Flag != "answered" || es[0].Original == nil || es[0].Original.UID != 3 || !es[0].SendAt.Equal(now.Add(10*time.Second)) {
		t.Fatalf("the outbox holds %+v", es)
	}
	tm.Send(key("z"))
	waitFor(t, tm, "review · y send", "taken back: not sent", "every recipient has been written to before")
	if es, _ := box.Entries(); len(es) != 0 {
		t.Fatalf("undo left %+v in the outbox", es)
	}
	check(t, final(t, tm))
}

func TestReviewRefusesAndDiscards(t *testing.T) {
	w, box := lunchWriter(t)
	// The editor empties To: no recipient, the text kept and shown.
	editor := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/^To:.*/To:/' \"$1\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Editor: editor, SendDelay: 10 * time.Second}
	tm, _ := run(t, []tui.Account{w}, 80, 24, func(o *tui.Options) { o.Mailroom = room })
	replyToLunch(t, tm)
	waitFor(t, tm, "cannot send: no recipient")
	tm.Send(key("y"))
	tm.Send(key("x"))
	waitFor(t, tm, "x again discards this draft")
	if es, _ := box.Entries(); len(es) != 0 {
		t.Fatalf("a draft with no recipient was queued: %+v", es)
	}
	tm.Send(key("x"))
	waitFor(t, tm, "draft discarded")
	if ds, _ := box.Drafts(); len(ds) != 0 {
		t.Fatalf("the discarded draft is still on disk: %+v", ds)
	}
}

// A reply written in the TUI lands once in the recipient's INBOX, with
// In-Reply-To and References, once in Sent, and the original is
// \Answered: real IMAP and SMTP servers, a real serve-imap child, the
// real outbox and runner.
// mailWorld is sam and bob on a real IMAP server (sam's INBOX holds
// Bob's "lunch?"), a real SMTP server delivering into it, sam's account
// through a real serve-imap child, and a running outbox; edit, when
// given, changes the config before the account opens.
func mailWorld(t *testing.T, edit ...func(*config.Config)) (*memimap.Server, *smtptest.Server, *accounts.Set, *outbox.Box, *dispatch.Runner) {
	return storedMailWorld(t, nil, edit...)
}

// storedMailWorld is mailWorld whose account keeps its mail in st (nil:
// none).
func storedMailWorld(t *testing.T, st *store.Store, edit ...func(*config.Config)) (*memimap.Server, *smtptest.Server, *accounts.Set, *outbox.Box, *dispatch.Runner) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, u := range []string{"sam", "bob"} {
		if err := srv.AddUser(u, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts}); err != nil {
			t.Fatal(err)
		}
	}
	orig := imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "lunch?", Date: time.Now().Add(-time.Hour), Body: "Noon?"}.Bytes()
	orig = append([]byte("Message-ID: <lunch-1@example.com>\r\n"), orig...)
	if _, err := srv.Append("sam", "INBOX", orig, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	smtp, err := smtptest.Start(smtptest.Options{Users: map[string]string{"sam": "pw"}, Deliver: smtptest.IntoMemIMAP(srv)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { smtp.Close() })
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: srv.Port(), Security: "none", Username: "sam",
		From: &mail.Address{Name: "Sam", Address: "sam@example.com"}, SaveSent: config.SaveSentAlways,
		SMTP: &config.SMTP{Host: "127.0.0.1", Port: smtp.Port(), Security: "none", Username: "sam"}}}}
	for _, e := range edit {
		e(cfg)
	}
	opts := accounts.Options{Exe: unibin.Exe(t),
		Password: func(config.Account) func(context.Context) (string, error) {
			return func(context.Context) (string, error) { return "pw", nil }
		}}
	if st != nil {
		opts.Store = accounts.Have(st)
	}
	set, err := accounts.Open(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.Close)
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	runner := dispatch.New(box, []dispatch.Account{set.Accounts[0].Sending()}, dispatch.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = runner.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return srv, smtp, set, box, runner
}

func TestReplyLandsOnce(t *testing.T) {
	srv, smtp, set, box, runner := mailWorld(t)
	room := &tui.Mailroom{Box: box, Runner: runner, Editor: editorScript(t, "Yes, noon works.")}
	tm, _ := run(t, uiAccounts(set), 100, 30, func(o *tui.Options) { o.Mailroom = room; o.Now = time.Now; o.MarkReadOnOpen = true })
	answerLunch(t, tm, "Yes, noon works.")
	tm.Send(key("y"))
	waitFor(t, tm, "sent: Re: lunch?", "> r   Work") // the row marked replied at once

	bob := facetest.Folder(t, srv, "bob", "pw", "INBOX")
	sent := facetest.Folder(t, srv, "sam", "pw", "Sent")
	if len(bob) != 1 || len(sent) != 1 || smtp.Deliveries() != 1 {
		t.Fatalf("bob's INBOX %d, Sent %d, deliveries %d: want 1 each", len(bob), len(sent), smtp.Deliveries())
	}
	for _, want := range []string{"In-Reply-To: <lunch-1@example.com>", "References: <lunch-1@example.com>", "Subject: Re: lunch?", "Yes, noon works.", "> Noon?"} {
		if !bytes.Contains(bob[0].Raw, []byte(want)) {
			t.Errorf("the reply lacks %q:\n%s", want, bob[0].Raw)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		inbox := facetest.Folder(t, srv, "sam", "pw", "INBOX")
		if len(inbox) == 1 && slices.Contains(inbox[0].Flags, imap.FlagAnswered) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the original is not \\Answered: %v", inbox[0].Flags)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if ds, _ := box.Drafts(); len(ds) != 0 {
		t.Errorf("the draft outlived its sent message: %+v", ds)
	}
}

func TestSendingCountdownScreen(t *testing.T) {
	w, box := lunchWriter(t)
	room := &tui.Mailroom{Box: box, Editor: editorScript(t, "Yes."), SendDelay: 10 * time.Second}
	tm, _ := run(t, []tui.Account{w}, 80, 24, func(o *tui.Options) { o.Mailroom = room })
	replyToLunch(t, tm)
	waitFor(t, tm, "review · y send")
	tm.Send(key("y"))
	waitFor(t, tm, "sending in 10s · z undo", "1 in outbox")
	check(t, final(t, tm))
}

// An editor that is missing, or exits non-zero, loses nothing: the text
// on disk (with what the editor saved before it failed) is shown on the
// review screen, the status line says the editor failed, and the draft
// stays on disk.
func TestEditorFailureKeepsText(t *testing.T) {
	for _, c := range []struct {
		name, editor, shown, status string
	}{
		{"missing", "", "> Noon at the usual place?", "no-such-editor\" was not found (exit status 127): check [compose] editor"},
		{"exits non-zero", "sed -i '0,/^$/s//\\nHalf a thought/' \"$1\"\nexit 3\n", "Half a thought", "the editor failed: exit status 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, box := lunchWriter(t)
			editor := filepath.Join(t.TempDir(), "no-such-editor")
			if c.editor != "" {
				if err := os.WriteFile(editor, []byte("#!/bin/sh\n"+c.editor), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			room := &tui.Mailroom{Box: box, Editor: editor, SendDelay: 10 * time.Second}
			tm, _ := run(t, []tui.Account{w}, 200, 24, func(o *tui.Options) { o.Mailroom = room })
			replyToLunch(t, tm)
			waitFor(t, tm, "review · y send", c.shown, "the editor failed: ", c.status, "(the text is kept)")
			ds, err := box.Drafts()
			if err != nil || len(ds) != 1 {
				t.Fatalf("drafts on disk: %+v, %v", ds, err)
			}
			if _, text, err := box.Draft(ds[0].ID); err != nil || !bytes.Contains(text, []byte(c.shown)) {
				t.Fatalf("the draft on disk lacks %q (%v):\n%s", c.shown, err, text)
			}
		})
	}
}

// A message sent just before unibox quit, still in its send_delay, gets
// its countdown on the status line at the next start, and undo brings
// its draft back to the review screen: nothing goes.
func TestCountdownSurvivesARestart(t *testing.T) {
	w, box := lunchWriter(t)
	text := "From: Sam <sam@example.com>\nTo: Bob <bob@example.com>\nCc:\nBcc:\nSubject: Re: lunch?\n\nSee you at noon.\n"
	d, err := box.NewDraft("Work", "reply", &outbox.Ref{Account: "Work", Folder: "INBOX", UIDValidity: 7, UID: 3, MessageID: "lunch-1@example.com"}, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	raw := []byte("From: sam@example.com\r\nTo: bob@example.com\r\nSubject: Re: lunch?\r\n\r\nSee you at noon.\r\n")
	if _, err := box.Enqueue(outbox.Entry{Account: "Work", MessageID: "m-1", DraftID: d.ID, From: "sam@example.com", Rcpt: []string{"bob@example.com"},
		SendAt: now.Add(7 * time.Second), Flag: "answered", Original: d.Original}, raw, raw); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Editor: "false", SendDelay: 10 * time.Second}
	tm, _ := run(t, []tui.Account{w}, 100, 24, func(o *tui.Options) { o.Mailroom = room })
	waitFor(t, tm, "sending in 7s · z undo", "1 in outbox")
	tm.Send(key("z"))
	waitFor(t, tm, "review · y send", "See you at noon.")
	if es, _ := box.Entries(); len(es) != 0 {
		t.Fatalf("undo left %+v in the outbox", es)
	}
	if ds, _ := box.Drafts(); len(ds) != 1 || ds[0].ID != d.ID {
		t.Fatalf("drafts %+v: want the one it was sent from", ds)
	}
}

// A draft chosen in the drafts view is reviewed with the message it
// answers under it, and a text longer than the screen scrolls to it: a
// long draft can be read whole before it goes.
func TestReviewShowsWhatItAnswers(t *testing.T) {
	w, box := lunchWriter(t)
	text := "From: Sam <sam@example.com>\nTo: Bob <bob@example.com>\nCc:\nBcc:\nSubject: Re: lunch?\n\nSee you at noon.\n" + strings.Repeat("more\n", 30) + "Sam\n"
	if _, err := box.NewDraft("Work", "reply", &outbox.Ref{Account: "Work", Folder: "INBOX", UIDValidity: 7, UID: 3, MessageID: "lunch-1@example.com"}, []byte(text)); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Editor: "false", SendDelay: time.Minute}
	tm, _ := run(t, []tui.Account{w}, 80, 24, func(o *tui.Options) { o.Mailroom = room })
	waitFor(t, tm, "1 unsent draft")
	tm.Send(key("D"))
	waitFor(t, tm, "draft · Work · reply")
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "See you at noon.", "every recipient has been written to before")
	tm.Send(key("G"))
	waitFor(t, tm, "── answers ──", "Noon at the usual place?")
	tm.Send(key("g"))
	waitFor(t, tm, "See you at noon.")
	tm.Send(key("G"))
	check(t, final(t, tm))
}

// An empty Subject is marked on the review (issue 37, item 11): sent
// without a word before, now "no subject" stands with the other marks;
// it stops nothing, y still sends.
func TestReviewMarksNoSubject(t *testing.T) {
	w, box := lunchWriter(t)
	editor := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/^Subject:.*/Subject:/' \"$1\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	room := &tui.Mailroom{Box: box, Editor: editor, SendDelay: 10 * time.Second}
	tm, _ := run(t, []tui.Account{w}, 80, 24, func(o *tui.Options) { o.Mailroom = room })
	replyToLunch(t, tm)
	waitFor(t, tm, "review · y send", "! Subject: no subject")
	tm.Send(key("y"))
	waitFor(t, tm, "sending in 10s · z undo", "1 in outbox")
	if es, _ := box.Entries(); len(es) != 1 {
		t.Fatalf("the message without a subject was not queued: %+v", es)
	}
	final(t, tm)
}
