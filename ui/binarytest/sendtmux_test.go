package binarytest

import (
	"bytes"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/accounts/testservers/smtptest"
	"unibox/ui/facetest"
)

// The message every test here answers: Bob asks about lunch.
const (
	lunchID   = "lunch-1@example.com"
	lunchBody = "Noon at the usual place?"
)

func lunchMail(to string) []byte {
	return imaptest.Mail{From: "Bob <bob@example.com>", To: to, Subject: "lunch?", MessageID: lunchID, Date: time.Now().Add(-time.Hour), Body: lunchBody}.Bytes()
}

// replyWorld is one sender's mailbox, the recipient's, and the submission
// server between them, seen from outside as a person would: over IMAP
// with a real client.
type replyWorld struct {
	smtp    *smtptest.Server
	faults  *memimap.Faults // memimap only: holds on the sender's commands
	account string          // the [[account]] table (with its sending lines)
	env     []string        // the password, for the real binary
	// folder reads user's folder over IMAP (user "sender" or "rcpt").
	folder func(t *testing.T, who, folder string) []facetest.Stored
	// seed puts raw into a folder of who's ("sender" or "rcpt").
	seed func(t *testing.T, who, folder string, raw []byte)
}

// replyMemWorld is sam and bob on one in-process server with faults, and an
// SMTP server delivering into it; saveSent is the account's save_sent.
func replyMemWorld(t *testing.T, saveSent string) *replyWorld {
	t.Helper()
	f := &memimap.Faults{}
	srv, err := memimap.Start(memimap.Options{Faults: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, u := range []string{"sam", "bob"} {
		if err := srv.AddUser(u, "pw", map[string]imap.MailboxAttr{"Sent": imap.MailboxAttrSent, "Drafts": imap.MailboxAttrDrafts}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := srv.Append("sam", "INBOX", lunchMail("sam@example.com"), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	s := facetest.SMTP(t, srv, "pw")
	return &replyWorld{smtp: s, faults: f,
		account: facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_SEND_PW")+"\n"+facetest.Sending(s.Port(), "save_sent = "+fmt.Sprintf("%q", saveSent))),
		env:     []string{"UNIBOX_SEND_PW=pw"},
		folder: func(t *testing.T, who, folder string) []facetest.Stored {
			user := map[string]string{"sender": "sam", "rcpt": "bob"}[who]
			return facetest.Folder(t, srv, user, "pw", folder)
		},
		seed: func(t *testing.T, who, folder string, raw []byte) {
			if _, err := srv.Append(map[string]string{"sender": "sam", "rcpt": "bob"}[who], folder, raw, nil, time.Now()); err != nil {
				t.Fatal(err)
			}
		}}
}

// replyDovecotWorld is alice and bob on a Dovecot of the test's own (skipped
// without Dovecot), and an SMTP server delivering to bob with doveadm.
func replyDovecotWorld(t *testing.T, saveSent string) *replyWorld {
	t.Helper()
	d := imaptest.StartDovecot(t)
	d.Seed(t, "alice", "INBOX", lunchMail("alice@example.org"))
	s, err := smtptest.Start(smtptest.Options{Users: map[string]string{"alice": "alice-pw"}, Deliver: smtptest.IntoDovecot(d.Dir(), "bob")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	clients := map[string]*imapclient.Client{}
	return &replyWorld{smtp: s,
		account: facetest.IMAPAs("Work", "alice", d.Port(), facetest.Env("UNIBOX_SEND_PW")+"\n"+
			facetest.SendingFrom("Alice <alice@example.org>", s.Port(), "save_sent = "+fmt.Sprintf("%q", saveSent))),
		env: []string{"UNIBOX_SEND_PW=alice-pw"},
		folder: func(t *testing.T, who, folder string) []facetest.Stored {
			user := map[string]string{"sender": "alice", "rcpt": "bob"}[who]
			if clients[user] == nil { // one connection each: the checks poll
				clients[user] = d.Client(t, user)
			}
			return storedIn(t, clients[user], folder)
		},
		seed: func(t *testing.T, who, folder string, raw []byte) {
			d.Seed(t, map[string]string{"sender": "alice", "rcpt": "bob"}[who], folder, raw)
		}}
}

// storedIn reads a folder with c, as facetest.Folder does for memimap.
func storedIn(t *testing.T, c *imapclient.Client, folder string) []facetest.Stored {
	t.Helper()
	sel, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("select %s: %v", folder, err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{Flags: true, BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []facetest.Stored
	for _, m := range msgs {
		s := facetest.Stored{Flags: m.Flags}
		for _, b := range m.BodySection {
			s.Raw = b.Bytes
		}
		out = append(out, s)
	}
	return out
}

// sendRun is one test's unibox: its config and its data folders, kept
// across restarts of the binary.
type sendRun struct {
	t    *testing.T
	bin  string
	cfg  string
	env  []string
	data string // $XDG_DATA_HOME/unibox: drafts/ and outbox/
}

// newSendRun writes a config for w with the editor and send_delay given.
// It takes no t.Setenv (the kill steps run in parallel): the real binary
// gets its XDG folders in its own environment.
func newSendRun(t *testing.T, w *replyWorld, editor, delay string) *sendRun {
	t.Helper()
	dir := t.TempDir()
	// mark_read_on_open off: the only STORE is the \Answered one, which
	// the kill steps hold.
	cfg := fmt.Sprintf("[ui]\nmark_read_on_open = false\n\n[compose]\neditor = %q\nsend_delay = %q\n", editor, delay) + w.account
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(xdgIn(dir), w.env...)
	return &sendRun{t: t, bin: buildUnibox(t), cfg: path, env: env, data: filepath.Join(dir, "data", "unibox")}
}

// start runs the binary in tmux.
func (r *sendRun) start() *tmuxScreen {
	return startTmux(r.t, r.bin, []string{"--config", r.cfg}, r.env, 100, 30)
}

// openReply opens Bob's message and presses r: the editor runs next.
func openReply(s *tmuxScreen) {
	s.waitFor("lunch?", 30*time.Second)
	s.keys("Enter")
	s.waitFor(lunchBody, 20*time.Second)
	s.keys("r")
}

// writerEditor is an editor script that writes line above the quote
// (after the header block's blank line), as a person would, and exits.
func writerEditor(t *testing.T, line string) string {
	t.Helper()
	return editorFile(t, "sed -i '0,/^$/s//\\n"+line+"/' \"$1\"\n")
}

func editorFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// eventually waits until ok; bound is a failure bound.
func eventually(t *testing.T, what string, bound time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// header is a header of raw ("" when missing).
func header(raw []byte, name string) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	return m.Header.Get(name)
}

// withHeader keeps the messages whose header name is value.
func withHeader(ms []facetest.Stored, name, value string) []facetest.Stored {
	var out []facetest.Stored
	for _, m := range ms {
		if header(m.Raw, name) == value {
			out = append(out, m)
		}
	}
	return out
}

// landedOnce checks the end state of one reply over IMAP: the
// recipient's INBOX holds it once (In-Reply-To, References, the text),
// Sent holds it once (same Message-ID), the original is \Answered, and
// the SMTP server took exactly one message.
func landedOnce(t *testing.T, w *replyWorld, line string) {
	t.Helper()
	var answered bool
	var sent []facetest.Stored
	var replyID, seen string
	defer func() {
		if t.Failed() {
			t.Logf("last seen over IMAP: %s", seen)
		}
	}()
	eventually(t, "the reply in the recipient's INBOX and Sent, the original \\Answered", 60*time.Second, func() bool {
		inbox := w.folder(t, "rcpt", "INBOX")
		replies := withHeader(inbox, "In-Reply-To", "<"+lunchID+">")
		seen = fmt.Sprintf("recipient's INBOX %d messages, %d replies", len(inbox), len(replies))
		if len(replies) == 0 {
			return false
		}
		replyID = header(replies[0].Raw, "Message-ID")
		all := w.folder(t, "sender", "Sent")
		sent = withHeader(all, "Message-ID", replyID)
		orig := withHeader(w.folder(t, "sender", "INBOX"), "Message-ID", "<"+lunchID+">")
		answered = len(orig) == 1 && slices.Contains(orig[0].Flags, imap.FlagAnswered)
		seen += fmt.Sprintf("; Sent %d messages, %d of %s; originals %d", len(all), len(sent), replyID, len(orig))
		if len(orig) == 1 {
			seen += fmt.Sprintf(" flagged %v", orig[0].Flags)
		}
		return len(sent) > 0 && answered
	})
	inbox := w.folder(t, "rcpt", "INBOX")
	if n := len(withHeader(inbox, "Message-ID", replyID)); n != 1 || len(inbox) != 1 {
		t.Errorf("the recipient's INBOX holds the reply %d times (%d messages): want once", n, len(inbox))
	}
	if len(sent) != 1 || w.smtp.Deliveries() != 1 {
		t.Errorf("Sent holds the reply %d times, the SMTP server took %d: want 1 each", len(sent), w.smtp.Deliveries())
	}
	r := withHeader(inbox, "Message-ID", replyID)[0]
	for _, want := range []string{"References: <" + lunchID + ">", "Subject: Re: lunch?", line, "> " + lunchBody} {
		if !bytes.Contains(r.Raw, []byte(want)) {
			t.Errorf("the reply lacks %q:\n%s", want, r.Raw)
		}
	}
	if len(sent) == 1 && !slices.Contains(sent[0].Flags, imap.FlagSeen) {
		t.Errorf("the copy in Sent is not \\Seen: %v", sent[0].Flags)
	}
}

// A reply written in the real binary in tmux (r, a scripted editor, y
// with send_delay "0s") lands once in the recipient's INBOX, once in
// Sent, and the original is \Answered: checked over IMAP with a real
// client, on memimap and on Dovecot (delivered with doveadm save).
// save_sent is the default, "auto": Sent is searched before the APPEND.
func TestReplyInRealTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel() // no t.Setenv: each run has its own folders; waits, mostly
	for _, c := range []struct {
		name  string
		world func(*testing.T, string) *replyWorld
	}{{"memimap", replyMemWorld}, {"dovecot", replyDovecotWorld}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := c.world(t, "auto")
			line := "Yes, noon works."
			r := newSendRun(t, w, writerEditor(t, line), "0s")
			s := r.start()
			openReply(s)
			s.waitFor(line, 20*time.Second)
			s.waitFor("review · y send", 5*time.Second)
			start := time.Now()
			s.keys("y")
			s.waitFor("sent: Re: lunch?", 30*time.Second)
			t.Logf("y to sent (the 250): %v", time.Since(start).Round(time.Millisecond))
			landedOnce(t, w, line)
			t.Logf("y to filed in Sent and \\Answered: %v", time.Since(start).Round(time.Millisecond))
			eventually(t, "the outbox and drafts empty", 20*time.Second, func() bool { return len(r.files("outbox"))+len(r.files("drafts")) == 0 })
		})
	}
}

// files is what a folder of the data root holds (temp files too).
func (r *sendRun) files(sub string) []string {
	ents, _ := os.ReadDir(filepath.Join(r.data, sub))
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// fileWith is the first file of sub whose name ends in ext and whose
// text holds want ("" when none).
func (r *sendRun) fileWith(sub, ext, want string) string {
	for _, n := range r.files(sub) {
		if !strings.HasSuffix(n, ext) {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(r.data, sub, n)); err == nil && bytes.Contains(b, []byte(want)) {
			return n
		}
	}
	return ""
}
