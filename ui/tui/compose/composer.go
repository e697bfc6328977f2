package compose

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/config"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/review"
	"unibox/ui/tui/screen"
)

// Composer is the message being written: its draft on disk, what the
// editor made of it, and the review screen, whose keys mean only what it
// lists (send, edit, postpone, discard, back); and, after the send key,
// the message waiting out send_delay, which undo takes back.
type Composer struct {
	e       *screen.Env // the UI's context, clock and mailroom
	styles  screen.Styles
	keys    screen.KeyMap
	acct    screen.Account // whose draft it is
	account string
	Draft   outbox.Draft      // the file the editor edits
	base    mailcompose.Draft // threading and attachments: the editor cannot change them
	Shown   mailcompose.Draft // the text as read back
	problem string            // why it cannot go as it stands ("": it can)
	fromFix bool              // the problem is only a From none of the account's: OwnFrom mends it
	// Marks is what the review screen points out in shown (model/review);
	// checking: they are being worked out.
	Marks    []review.Mark
	checking bool
	confirm  bool         // discard was asked once
	Review   bool         // the review screen is up
	Waiting  *WaitingSend // sent, not gone yet
	Summary  outboxSummary
	Drafted  map[model.MessageID]bool // messages a draft not yet sent answers: their rows show ✎
	busy     bool                     // a send, postpone or discard is under way: keys wait
	// answers is the message a reopened draft answers, shown under it;
	// answersNote says why it is not there.
	answers     *model.Body
	answersNote string
	// pristine is the text as written, until the editor first returns
	// (abort_unmodified; see ComposeReadyMsg).
	pristine []byte
	// refused is the server's reason when a failed message was reopened.
	refused string
	// entries are the outbox as last read, for what q asks about (Soon).
	entries []outbox.Entry
	// justSent is the message the last outbox read found sent: an
	// accepted invitation's event goes to add_cmd then (calendar.go).
	justSent *WaitingSend
	// scroll is how far the review's text is moved up; width and height
	// are the review's size, which the root sets, so keys can bound it.
	scroll, Width, Height int
	// bodies and quoted keep the text and the answered message's text as
	// drawn, between frames (shared by the composer's copies).
	bodies, quoted *wrapMemo
	// prompt is the attach key's path being typed (nil: none); attaching
	// the path of a file being copied ("": none): attaching.go.
	prompt    *attachPrompt
	attaching string
}

// New is the composer over the UI's Env: nothing written yet.
func New(e *screen.Env) Composer {
	return Composer{e: e, styles: e.Styles, keys: e.Keys, bodies: &wrapMemo{}, quoted: &wrapMemo{}}
}

// WaitingSend is a message in its send_delay: undo brings it back to the
// review screen as it was.
type WaitingSend struct {
	Entry   outbox.Entry
	account string
	base    mailcompose.Draft
	Subject string
	// adopted is set on a message an earlier unibox queued, found in
	// its send_delay at start: there is no base to go back to, so undo
	// reopens its draft as the drafts view does, through acct.
	adopted screen.Account
	// acct is the account it goes from (nil for an adopted one): what an
	// accepted invitation's hand-over to add_cmd is noted in.
	acct screen.Account
	// queued is the entry's place in outboxSeq once it was on disk: a
	// listing of the outbox begun before it cannot tell it sent (zero
	// for an adopted one).
	queued uint64
}

// outboxSummary is what the header says waits on disk.
type outboxSummary struct {
	queued, unknown, failed, drafts, review int
}

// started takes a draft written to disk: the editor comes next.
func (c Composer) started(msg ComposeReadyMsg) Composer {
	c.acct, c.account, c.Draft, c.base, c.Shown = msg.acct, msg.account, msg.draft, msg.base, msg.base
	c.problem, c.confirm, c.Review, c.busy, c.scroll = "", false, false, false, 0
	c.answers, c.answersNote = msg.answers, msg.answersNote
	c.pristine, c.refused = msg.pristine, msg.refused
	c.prompt, c.attaching = nil, ""
	return c
}

// reviewed shows the text the editor left, or what is wrong with it.
func (c Composer) reviewed(msg ReviewMsg) Composer {
	c.Shown, c.problem, c.confirm, c.Review, c.fromFix = msg.draft, "", false, true, false
	if msg.err == nil {
		msg.err = mailcompose.CheckDraftShowable(msg.draft) // what is reviewed is what is sent
	}
	if msg.err != nil {
		c.problem = msg.err.Error()
		return c
	}
	if why := c.foreignFrom(msg.draft); why != "" {
		c.problem, c.fromFix = why, true // y and p wait; OwnFrom or e mends it
	}
	return c
}

// Update runs the writing flow (step) and tells the root whether the
// review screen is up after it (reviewingMsg), as it is after every
// message while it is, and once when it ends.
func (c Composer) Update(msg tea.Msg) (Composer, tea.Cmd) {
	was := c.Review
	c, cmd := c.step(msg)
	switch {
	case c.Review:
		c.e.Tell(ReviewingMsg{On: true})
	case was:
		c.e.Tell(ReviewingMsg{})
	}
	return c, cmd
}

// step is one step of the writing flow: the draft on disk opens the
// editor, the editor's end reads the text back for review, the review's
// keys send (into the outbox), edit again, postpone or discard, and undo
// within send_delay brings the message back. What the status line should
// say it tells the root as a noteMsg (say).
func (c Composer) step(msg tea.Msg) (Composer, tea.Cmd) {
	room := c.e.Opts.Mailroom
	switch msg := msg.(type) {
	case ComposeReadyMsg:
		if msg.Err != nil {
			c.say(msg.Err.Error(), true)
			return c, nil
		}
		c = c.started(msg)
		c.e.Tell(screen.NoteMsg{}) // the editor takes over: "writing…" is done
		return c, editCmd(room, c.Draft)
	case ReopenedMsg:
		if msg.Err != nil {
			c.say(msg.Err.Error(), true)
			return c, nil
		}
		c = c.started(msg.ComposeReadyMsg)
		return c, readDraftCmd(room, c.Draft.ID, c.base)
	case EditedMsg:
		cmd := readDraftCmd(room, msg.draftID, c.base)
		if p := c.pristine; p != nil && msg.err == nil && msg.draftID == c.Draft.ID {
			c.pristine = nil // the first edit only: e on the review never discards
			return c, unmodifiedCmd(c.e.Ctx, room, c.acct, msg.draftID, c.base, p, c.e.Opts.CallTimeout)
		}
		c.pristine = nil
		if msg.err == nil {
			cmd = tea.Batch(cmd, noteDraftCmd(room, c.acct, msg.draftID, "edited", nil))
		}
		if msg.err != nil {
			// The editor is missing or failed: the text on disk is kept
			// and shown, and e tries again.
			c.say("the editor failed: "+msg.err.Error()+" (the text is kept)", true)
		}
		return c, cmd
	case UnmodifiedMsg:
		if msg.err != nil {
			c.say("not changed, but the draft could not be discarded: "+msg.err.Error(), true)
			return c, readDraftCmd(room, msg.draftID, c.base)
		}
		c.say("not changed: discarded ([compose] abort_unmodified)", false)
		return c, ReadOutboxCmd(room)
	case ReviewMsg:
		if msg.DraftID != c.Draft.ID {
			return c, nil
		}
		c = c.reviewed(msg)
		c.Marks, c.checking = nil, true
		return c, checkCmd(c.e.Ctx, room, c.acct, c.Draft.ID, c.Shown)
	case CompletedMsg:
		return c.completed(msg), nil
	case AttachedMsg:
		return c.attached(msg)
	case RecipientsMsg:
		return c.setRecipients(msg)
	case RecipientsSetMsg:
		return c.recipientsSet(msg)
	case MarksMsg:
		if msg.DraftID == c.Draft.ID && msg.text == c.Shown.Body {
			c.Marks, c.checking = msg.marks, false
		}
		return c, nil
	case QueuedMsg:
		c.busy = false
		if msg.err != nil {
			c.problem = msg.err.Error()
			return c, nil
		}
		c.Review = false
		c.Waiting = &WaitingSend{Entry: msg.entry, account: c.account, base: c.base, Subject: c.Shown.Subject, queued: msg.at, acct: c.acct}
		return c, ReadOutboxCmd(room)
	case CancelledMsg:
		w := c.Waiting
		c.Waiting = nil
		if msg.Err != nil || w == nil {
			c.say("too late to take it back: "+errText(msg.Err), true)
			return c, nil
		}
		c.say("taken back: not sent", false)
		if w.adopted != nil {
			return c, tea.Batch(reopenDraftCmd(c.e.Ctx, room, w.adopted, msg.entry.DraftID, c.e.Opts.CallTimeout), ReadOutboxCmd(room))
		}
		c.Draft = outbox.Draft{ID: msg.entry.DraftID, Account: w.account, Original: msg.entry.Original}
		c.account, c.base = w.account, w.base
		return c, tea.Batch(readDraftCmd(room, msg.entry.DraftID, w.base), ReadOutboxCmd(room))
	case ShelvedMsg:
		c.busy = false
		if msg.Err != nil {
			c.problem = msg.Err.Error()
			return c, nil
		}
		c.Review = false
		c.say("draft "+msg.Verb, false)
		return c, ReadOutboxCmd(room)
	case OutboxMsg:
		c, line, failed := c.outboxChanged(msg, c.e.Opts.Now())
		c.say(line, failed)
		sent := c.justSent
		c.justSent = nil
		return c, calendarAddCmd(c.e, sent)
	case tea.KeyMsg:
		if !c.Review || c.busy {
			return c, nil
		}
		if c.prompt != nil {
			return c.promptKey(msg)
		}
		if c.attaching != "" && key.Matches(msg, c.keys.Send, c.keys.Edit, c.keys.Postpone, c.keys.Discard, c.keys.Attach, c.keys.EditRecipients) {
			c.say("a file is being attached: wait until it is", true)
			return c, nil
		}
		switch {
		case key.Matches(msg, c.keys.Attach):
			c.prompt = newAttachPrompt()
			return c, nil
		case key.Matches(msg, c.keys.EditRecipients):
			return c.askRecipients(), nil
		}
		if c.fromFix && key.Matches(msg, c.keys.OwnFrom) {
			c.fromFix = false
			return c, ownFromCmd(room, c.acct, c.Draft.ID, c.base, c.Shown)
		}
		var act reviewAction
		c, act = c.action(msg)
		now := c.e.Opts.Now()
		switch act {
		case reviewSend:
			c.busy = true
			head := []byte(c.Shown.Editable()) // its text may be gone with the message before the note is written
			return c, tea.Batch(queueCmd(room, c.account, c.draftFile(), c.Shown, now), noteDraftCmd(room, c.acct, c.Draft.ID, "sent", head))
		case reviewEdit:
			return c, editCmd(room, c.draftFile())
		case reviewPostpone:
			c.busy = true
			return c, postponeCmd(c.e.Ctx, room, c.acct, c.draftFile(), c.Shown, now, c.e.Opts.CallTimeout)
		case reviewDiscard:
			c.busy = true
			return c, discardCmd(c.e.Ctx, room, c.acct, c.draftFile(), c.e.Opts.CallTimeout)
		case reviewLeave:
			c.Review = false
			c.say("kept as a draft", false)
			return c, ReadOutboxCmd(room)
		}
	}
	return c, nil
}

// draftFile is the draft with its path, read again: a draft brought back
// by undo knows only its id.
func (c Composer) draftFile() outbox.Draft {
	if c.Draft.Path == "" {
		if d, _, err := c.e.Opts.Mailroom.Box.Draft(c.Draft.ID); err == nil {
			return d
		}
	}
	return c.Draft
}

func errText(err error) string {
	if err == nil {
		return "it is already on its way"
	}
	return err.Error()
}

// Countdown is the status line while a message waits out send_delay.
func (c Composer) Countdown(now time.Time) (string, bool) {
	if c.Waiting == nil || !now.Before(c.Waiting.Entry.SendAt) {
		return "", false
	}
	left := c.Waiting.Entry.SendAt.Sub(now)
	secs := int((left + time.Second - 1) / time.Second)
	return fmt.Sprintf("sending in %ds · %s undo", secs, screen.Hint(c.keys.Undo)), true
}

// outboxChanged follows the waiting message to its end: gone (sent and
// filed), or failed, or unknown; line is what the status line says then.
func (c Composer) outboxChanged(msg OutboxMsg, now time.Time) (Composer, string, bool) {
	c.Summary = summarize(msg.entries, msg.drafts)
	c.entries = msg.entries
	c.Drafted = drafted(msg.drafts)
	if c.Waiting == nil && !c.Review {
		c.Waiting = c.adopt(msg.entries, now)
	}
	if c.Waiting == nil || now.Before(c.Waiting.Entry.SendAt) {
		return c, "", false
	}
	w := c.Waiting
	for _, e := range msg.entries {
		if e.ID != w.Entry.ID {
			continue
		}
		switch e.State {
		case outbox.StateUnknown:
			c.Waiting = nil
			return c, "may have been sent: check Sent (" + e.LastError + ")", true
		case outbox.StateFailed:
			c.Waiting = nil
			return c, "not sent: " + e.LastError, true
		case outbox.StateQueued:
			if e.LastError != "" {
				return c, "not sent yet, will retry: " + e.LastError, true
			}
			return c, "", false
		case outbox.StateSending:
			return c, "", false // on the wire: "sent" once the server has taken it
		}
		c.Waiting, c.justSent = nil, w // sent; the copy and the flag follow
		c.tellMarked(w.Entry)
		return c, "sent: " + w.Subject, false
	}
	if msg.readAt < w.queued {
		// Read before the entry was written (a listing still on its
		// way when y was pressed): its absence says nothing. Saying
		// "sent" here said it before anything was sent.
		return c, "", false
	}
	c.Waiting, c.justSent = nil, w
	c.tellMarked(w.Entry)
	return c, "sent: " + w.Subject, false
}

// say tells the root what the status line should say; "" leaves it.
func (c Composer) say(line string, bad bool) {
	if line != "" {
		c.e.Tell(screen.NoteMsg{Text: line, Bad: bad})
	}
}

// tellMarked tells the root the message a reply or forward just sent
// answers or forwards: its row is marked at once, not at the next
// listing (the server's flag and the stored row come from the outbox's
// flag step).
func (c Composer) tellMarked(e outbox.Entry) {
	if s := markOf(e); s != nil {
		c.e.Tell(SentMarkMsg{Mark: *s})
	}
}

// adopt finds the message a person sent just before unibox last quit,
// still in its send_delay: its countdown and undo belong on the status
// line as much as one sent a moment ago. The earliest goes first; a
// message of an account no longer configured is an orphan, never sent,
// and one that failed before, or due beyond the longest send_delay (a
// retry's time), is the drafts view's to show.
func (c Composer) adopt(entries []outbox.Entry, now time.Time) *WaitingSend {
	var w *WaitingSend
	for _, e := range entries {
		if e.State != outbox.StateQueued || e.Attempts > 0 || !now.Before(e.SendAt) || e.SendAt.Sub(now) > config.MaxSendDelay ||
			(w != nil && !e.SendAt.Before(w.Entry.SendAt)) {
			continue
		}
		for _, a := range c.e.Opts.Accounts {
			if a.Name() == e.Account {
				w = &WaitingSend{Entry: e, account: e.Account, Subject: "the message to " + strings.Join(e.Rcpt, ", "), adopted: a}
			}
		}
	}
	return w
}

// sentMark is the mark a sent message sets on its original.
type sentMark struct {
	Orig      outbox.Ref
	forwarded bool // $Forwarded (a forward), else \Answered (a reply)
}

// markOf is the mark a sent reply or forward sets on the message it
// answers or forwards, nil for anything else (a new message).
func markOf(e outbox.Entry) *sentMark {
	if e.Original == nil || e.Flag != "answered" && e.Flag != "forwarded" {
		return nil
	}
	return &sentMark{Orig: *e.Original, forwarded: e.Flag == "forwarded"}
}

// Set puts the mark on a row.
func (s sentMark) Set(m *model.Message) {
	if s.forwarded {
		m.Forwarded = true
	} else {
		m.Answered = true
	}
}

// summarize counts what waits: drafts a message was queued from are the
// outbox's, not unsent drafts; an agent's draft waits for review.
func summarize(entries []outbox.Entry, drafts []drafting.Listed) outboxSummary {
	var s outboxSummary
	queued := map[string]bool{}
	for _, e := range entries {
		queued[e.DraftID] = true
		switch e.State {
		case outbox.StateUnknown:
			s.unknown++
		case outbox.StateFailed:
			s.failed++
		default:
			s.queued++
		}
	}
	for _, d := range drafts {
		switch {
		case queued[d.ID]:
		case d.Author == drafting.Agent:
			s.review++
		default:
			s.drafts++
		}
	}
	return s
}

// drafted is the messages the drafts not yet sent answer.
func drafted(ds []drafting.Listed) map[model.MessageID]bool {
	var waiting []drafting.Listed
	for _, d := range ds {
		if !d.Queued && (d.Kind == "reply" || d.Kind == "reply_all" || d.Kind == "rsvp") {
			waiting = append(waiting, d)
		}
	}
	out := map[model.MessageID]bool{}
	for id := range drafting.Answered(waiting) {
		out[id] = true
	}
	return out
}

// Words is the summary for the header, "" when nothing waits.
func (s outboxSummary) Words() string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, one)
		case n > 1:
			parts = append(parts, fmt.Sprintf(many, n))
		}
	}
	add(s.queued, "1 in outbox", "%d in outbox")
	add(s.unknown, "1 may have been sent", "%d may have been sent")
	add(s.failed, "1 not sent", "%d not sent")
	add(s.review, "1 draft to review", "%d drafts to review")
	add(s.drafts, "1 unsent draft", "%d unsent drafts")
	return strings.Join(parts, " · ")
}

// What the composer tells the root (env.Tell).
type (
	// ReviewingMsg: the composer's review screen is up (on), or ended.
	ReviewingMsg struct{ On bool }
	// SentMarkMsg: a reply or forward just went; its original's row is
	// marked at once.
	SentMarkMsg struct{ Mark sentMark }
)
