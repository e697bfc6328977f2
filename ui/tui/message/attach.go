package message

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/accounts/attach"
	"unibox/model"
	"unibox/model/runnable"
	"unibox/ui/tui/screen"
)

// progressFrom is the size from which a save shows a progress bar; a
// smaller part is saved before a bar could say anything.
const progressFrom = 1 << 20

// progressEvery is how often a save's bar looks at the file.
const progressEvery = 100 * time.Millisecond

// attachState is what the message view does with attachments beyond the
// list: the save or open under way (one at a time) and the opener, whose
// private folder lives until the TUI closes. Its flow (A, S and the
// transfers' messages) is the viewer's; it tells the status line by
// noteMsg.
type attachState struct {
	e      *screen.Env // the UI's lifetime, options, accounts, request ids and tell
	busy   *transfer
	opener *attach.Opener
}

// transfer is a save or an open under way: the child writes the file,
// written says how much of it is there.
type transfer struct {
	req     uint64
	verb    string // "saving" or "opening"
	name    string
	size    int64
	written func() int64
}

// Messages of the attachment commands.
type (
	SavedMsg struct {
		req  uint64
		path string
		err  error
	}
	ProgressMsg struct {
		req     uint64
		written int64
	}
	AttachOpenedMsg struct {
		req        uint64
		name, path string
		err        error
	}
)

// AttachKey runs A and S in the message view, and the attachment list's
// keys while it is open. ok is false for any other key.
func (v *Viewer) AttachKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := v.keys
	n := len(v.body.Attachments)
	if !v.attach.open {
		if !key.Matches(msg, k.Attachments, k.SaveAttachment) {
			return nil, false
		}
		if _, ok := v.Answerable(); !ok {
			v.note("the message has not loaded yet", true)
			return nil, true
		}
		switch {
		case n == 0:
			v.note("this message has no attachments", false)
		case n == 1 && key.Matches(msg, k.SaveAttachment):
			return v.saveAttachment(0), true
		default:
			v.attach = attachList{open: true}
		}
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Back, k.Quit, k.Attachments):
		v.attach.open = false
	case key.Matches(msg, k.Down):
		v.attach = v.attach.step(1, n)
	case key.Matches(msg, k.Up):
		v.attach = v.attach.step(-1, n)
	case key.Matches(msg, k.Open):
		return v.openAttachment(v.attach.cursor), true
	case key.Matches(msg, k.SaveAttachment):
		return v.saveAttachment(v.attach.cursor), true
	default:
		return nil, false
	}
	return nil, true
}

// source is the account of the message on screen, if it can save parts.
func (v *Viewer) source() (attach.Source, model.Body, bool) {
	b, ok := v.Answerable()
	if !ok {
		return nil, b, false
	}
	acct := v.att.e.Account(v.att.e.AccountIndex(b.ID.Account))
	if acct == nil {
		return nil, b, false
	}
	src, ok := acct.(attach.Source)
	if !ok {
		v.note("account "+b.ID.Account+" cannot fetch attachments", true)
	}
	return src, b, ok
}

// saveAttachment saves attachment i of the message on screen into
// download_dir: the child writes it into a private staging folder there,
// watched for the progress bar, then it takes its safe name.
func (v *Viewer) saveAttachment(i int) tea.Cmd {
	if v.stillBusy() {
		return nil
	}
	src, b, ok := v.source()
	if !ok || i >= len(b.Attachments) {
		return nil
	}
	at := b.Attachments[i]
	job, err := attach.NewJob(v.att.e.Opts.DownloadDir, at.Name)
	if err != nil {
		v.note("not saved: "+err.Error(), true)
		return nil
	}
	tr := v.start("saving", at.Name, at.Size, job.Written)
	ctx, timeout := v.att.e.Ctx, v.att.e.Opts.CallTimeout+accounts.TransferTime(at.Size)
	return tr.with(func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		defer job.Close()
		path, err := job.Run(cctx, src, b.ID, i)
		return SavedMsg{req: tr.req, path: path, err: err}
	})
}

// stillBusy says so when a save or open is under way.
func (v *Viewer) stillBusy() bool {
	if t := v.att.busy; t != nil {
		v.note(t.verb+" "+t.name+" is under way", true)
		return true
	}
	return false
}

// start records a transfer and says it began.
func (v *Viewer) start(verb, name string, size int64, written func() int64) *transfer {
	t := &transfer{req: v.att.e.Next(), verb: verb, name: displayName(name), size: size, written: written}
	v.att.busy = t
	v.note(verb+" "+t.name+"…", false)
	return t
}

// with runs the transfer's command, and watches it for a progress bar
// when the part is big enough for one.
func (t *transfer) with(run tea.Cmd) tea.Cmd {
	if t.size < progressFrom {
		return run
	}
	return tea.Batch(run, t.watch())
}

// watch reads how much of the file is written, a little later.
func (t *transfer) watch() tea.Cmd {
	return tea.Tick(progressEvery, func(time.Time) tea.Msg { return ProgressMsg{req: t.req, written: t.written()} })
}

// done forgets the transfer req, if it is the one under way.
func (v *Viewer) done(req uint64) {
	if t := v.att.busy; t != nil && t.req == req {
		v.att.busy = nil
	}
}

// openAttachment opens attachment i with open_cmd, unless it would run.
func (v *Viewer) openAttachment(i int) tea.Cmd {
	src, b, ok := v.source()
	if !ok || i >= len(b.Attachments) {
		return nil
	}
	if v.stillBusy() {
		return nil
	}
	at := b.Attachments[i]
	p, err := v.att.opener.Prepare(at.Name)
	if err != nil {
		return v.showOpened(AttachOpenedMsg{name: displayName(at.Name), err: err}) // refused by its name
	}
	tr := v.start("opening", at.Name, at.Size, p.Written)
	ctx, timeout := v.att.e.Ctx, v.att.e.Opts.CallTimeout+accounts.TransferTime(at.Size)
	return tr.with(func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		path, err := p.Run(cctx, src, b.ID, i)
		return AttachOpenedMsg{req: tr.req, name: tr.name, path: path, err: err}
	})
}

// AttachMsg shows how a save or an open went, and the progress bar,
// wherever the message view has gone since.
func (v *Viewer) AttachMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ProgressMsg:
		t := v.att.busy
		if t == nil || t.req != msg.req {
			return nil
		}
		v.note(fmt.Sprintf("%s %s %s", t.verb, t.name, progressBar(msg.written, t.size, 20)), false)
		return t.watch()
	case SavedMsg:
		v.done(msg.req)
		if msg.err != nil {
			v.note("not saved: "+msg.err.Error(), true)
		} else {
			v.note("saved "+msg.path, false)
		}
	case AttachOpenedMsg:
		v.done(msg.req)
		return v.showOpened(msg)
	}
	return nil
}

// showOpened says how an open went: a refusal with its reason.
func (v *Viewer) showOpened(msg AttachOpenedMsg) tea.Cmd {
	var refused *runnable.Refused
	switch {
	case errors.As(msg.err, &refused):
		v.note(refused.Error(), true)
	case msg.err != nil:
		v.note("could not open "+msg.name+": "+msg.err.Error(), true)
	default:
		v.note("opened "+msg.name, false)
	}
	return nil
}

// note tells the status line what the attachments' flow says.
func (v *Viewer) note(text string, bad bool) {
	v.att.e.Tell(screen.NoteMsg{Text: text, Bad: bad})
}

// progressBar is "[#####·····] 50% 2.5 of 5.0 MB", width cells of bar.
func progressBar(done, total int64, width int) string {
	if total <= 0 {
		total = 1
	}
	frac := min(max(float64(done)/float64(total), 0), 1)
	full := int(frac * float64(width))
	return fmt.Sprintf("[%s%s] %3.0f%% %s of %s", strings.Repeat("#", full), strings.Repeat("·", width-full), frac*100, screen.HumanSize(done), screen.HumanSize(total))
}

// displayName is an attachment's name for the status line.
func displayName(name string) string {
	if name == "" {
		return "(no name)"
	}
	return model.Quote(name)
}
