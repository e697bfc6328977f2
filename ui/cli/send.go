package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"unibox/accounts"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
	"unibox/model/textsafe"
	"unibox/ui/launch"
)

// Exit codes of `unibox send` beyond every face's 0 and 2.
const (
	ExitNotSent = 1 // not sent, nothing queued
	ExitUnknown = 3 // cut after the body went out: it may have been sent
	ExitQueued  = 4 // --queue: not sent now, waiting in the outbox
)

// SendJSON is `unibox send --json` (public names).
type SendJSON struct {
	MessageID string `json:"message_id"`
	Outcome   string `json:"outcome"`  // sent, failed, unknown, or queued (--queue, exit 4: waiting in the outbox)
	SavedTo   string `json:"saved_to"` // the folder holding the copy, "" when none was filed
	Error     string `json:"error"`    // a server's words among them, made safe to print (textsafe.Line)
}

// OutcomeQueued is --queue's outcome: not sent now, waiting in the
// outbox for a unibox to send it (exit 4).
const OutcomeQueued = "queued"

// maxSend bounds the message a script hands in: past this no mail
// server takes it, and it is all held in memory.
const maxSend = 50 << 20

// Send is `unibox send --account NAME [--json] [--queue] [--attach PATH]...
// [FILE|-]`: one RFC 5322 message through the same at-most-once path as
// the TUI, with no delay, and its copy in Sent; --attach wraps it in
// multipart/mixed with the files (attach.go).
func Send(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const use = "usage: unibox send --account NAME [--json] [--queue] [--timeout 5m] [--attach PATH]... [FILE|-]"
	f := newFaceFlags("send", use, stderr)
	f.timeout = 5 * time.Minute
	f.fs.Lookup("timeout").DefValue = "5m0s"
	queue := f.fs.Bool("queue", false, "an unreachable account leaves the message in the outbox (exit 4)")
	var attach stringList
	f.fs.Var(&attach, "attach", "attach this file (repeatable): the message is sent as multipart/mixed")
	if err := f.fs.Parse(args); err != nil {
		return launch.ExitUsage
	}
	if len(f.names) != 1 || f.fs.NArg() > 1 || f.timeout <= 0 {
		fmt.Fprintln(stderr, use)
		return launch.ExitUsage
	}
	raw, err := readMessage(f.fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "unibox send: %v\n", err)
		return launch.ExitUsage
	}
	env, accts, code := f.open(launch.StoreOpen)
	if env == nil {
		return code
	}
	defer env.Close()
	a := accts[0]
	// The Mailroom every sending face opens, its runner over this account.
	room, roomErr := env.OpenMailroom([]*accounts.Account{a}, dispatch.Options{})
	if roomErr == nil {
		recoverOutbox(room, stderr)
	}
	out, code := send(a, room, roomErr, raw, attach, *queue, f.timeout)
	// The error carries what the SMTP and IMAP servers said: a hostile
	// server's reply must not drive the terminal (on stderr, or on
	// whatever prints the JSON's decoded strings).
	out.Error, out.SavedTo = textsafe.Line(out.Error), textsafe.Line(out.SavedTo)
	if f.json {
		_ = writeJSON(stdout, out)
	} else if out.Outcome == string(dispatch.OutcomeSent) {
		fmt.Fprintf(stdout, "sent <%s>%s\n", textsafe.Line(out.MessageID), savedNote(out.SavedTo))
	}
	if out.Error != "" {
		fmt.Fprintf(stderr, "unibox send: %s\n", out.Error)
	}
	return code
}

func savedNote(folder string) string {
	if folder == "" {
		return ""
	}
	return ", copy in " + textsafe.Line(folder)
}

// recoverOutbox does what every unibox does at start, before it sends:
// an entry a killed unibox left "sending" becomes unknown (its body may
// have reached the server; it is never sent again on its own), and the
// script's person hears of it, since no screen will show it. Trouble here
// stops nothing: this send touches only its own entry.
func recoverOutbox(room *launch.Mailroom, stderr io.Writer) {
	changed, err := room.Recover()
	if err != nil {
		fmt.Fprintf(stderr, "unibox send: %v\n", err)
	}
	for _, e := range changed {
		if e.State == outbox.StateUnknown {
			fmt.Fprintf(stderr, "unibox send: <%s>, from a unibox stopped while sending it, may have been sent: check Sent\n", textsafe.Line(e.MessageID))
		}
	}
}

// readMessage reads FILE, or stdin for "-" or no argument.
func readMessage(path string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if path != "" && path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxSend+1))
	if err != nil {
		return nil, fmt.Errorf("read the message: %w", err)
	}
	if len(b) > maxSend {
		return nil, fmt.Errorf("the message is over %d MiB", maxSend>>20)
	}
	return b, nil
}

// send puts the message in the outbox (on disk before anything can
// fail), delivers it once, and says how it went.
func send(a *accounts.Account, room *launch.Mailroom, roomErr error, raw []byte, attach []string, queue bool, timeout time.Duration) (SendJSON, int) {
	from, err := a.Sending().From()
	if cerr := a.Sending().CanSend(); cerr != nil {
		err = cerr
	}
	if err != nil {
		return SendJSON{Outcome: string(dispatch.OutcomeFailed), Error: err.Error()}, ExitNotSent
	}
	_, aliases := a.Sending().Identity()
	raw, err = checkMessage(raw, compose.Identity{From: model.Address{Name: from.Name, Address: from.Address}, Aliases: aliases})
	if err != nil {
		return SendJSON{Outcome: string(dispatch.OutcomeFailed), Error: err.Error()}, launch.ExitUsage
	}
	limit := sizeLimit(a, room)
	if raw, err = attachFiles(raw, attach, limit); err != nil {
		return SendJSON{Outcome: string(dispatch.OutcomeFailed), Error: err.Error()}, launch.ExitUsage
	}
	prep, err := compose.PrepareRaw(raw, model.Address{Name: from.Name, Address: from.Address}, time.Now())
	if err != nil {
		return SendJSON{Outcome: string(dispatch.OutcomeFailed), Error: err.Error()}, launch.ExitUsage
	}
	if len(attach) > 0 {
		if err := fits(prep, limit); err != nil {
			return SendJSON{Outcome: string(dispatch.OutcomeFailed), Error: err.Error()}, launch.ExitUsage
		}
	}
	out := SendJSON{MessageID: prep.MessageID, Outcome: string(dispatch.OutcomeFailed)}
	if roomErr != nil {
		out.Error = roomErr.Error()
		return out, ExitNotSent
	}
	e, err := room.Box.Enqueue(outbox.Entry{Account: a.Name(), MessageID: prep.MessageID, From: prep.From, Rcpt: prep.Rcpt, SendAt: time.Now()}, prep.Wire, prep.Saved)
	if err != nil {
		out.Error = err.Error()
		return out, ExitNotSent
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	runner := room.Runner
	rep, err := runner.Deliver(ctx, e.ID)
	out.Outcome, out.SavedTo = string(rep.Outcome), rep.Entry.SentFolder
	if err != nil {
		out.Error = a.Redact(err.Error())
	} else if rep.Entry.LastError != "" && rep.Outcome != dispatch.OutcomeSent {
		out.Error = rep.Entry.LastError
	}
	switch rep.Outcome {
	case dispatch.OutcomeSent:
		if rep.Entry.State != outbox.StateDone && rep.Entry.LastError != "" {
			out.Error = "sent; " + rep.Entry.LastError + " (unibox finishes it later)"
		}
		return out, launch.ExitOK
	case dispatch.OutcomeUnknown:
		out.Error = "may have been sent: check Sent (" + out.Error + ")"
		return out, ExitUnknown
	}
	if queue && rep.Entry.State == outbox.StateQueued {
		out.Outcome = OutcomeQueued
		return out, ExitQueued
	}
	if rmErr := runner.Abandon(e.ID); rmErr != nil && !errors.Is(rmErr, outbox.ErrNotFound) {
		out.Error += "; and it could not be taken out of the outbox: " + rmErr.Error()
	}
	return out, ExitNotSent
}
