package tui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/screen"
)

// wokenFor is how long a woken message keeps its "woken" mark.
const wokenFor = 24 * time.Hour

// snoozeMarks is what one account's rows show of the schedule.
type snoozeMarks struct {
	folder  string
	snoozed map[string]time.Time
	woken   map[string]time.Time
	next    time.Time // the soonest wake: the TUI syncs the account then
	timer   time.Time // when the running timer fires
	fired   time.Time // when a timer last fired: a wake still due waits retryWake more
}

// retryWake is how long a wake still due after its sync (the server
// refused it, the account is down) waits before the next try: never a
// loop of syncs.
const retryWake = time.Minute

// snoozeDueMsg is an account's soonest wake come: its sync wakes it.
type snoozeDueMsg struct {
	account int
	at      time.Time
}

func (m snoozeDueMsg) AccountIndex() int { return m.account }

// wakeTimerCmd waits for at (or the UI's end) and says the wake is due.
func wakeTimerCmd(ctx context.Context, i int, at time.Time) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(time.Until(at))
		defer t.Stop()
		select {
		case <-t.C:
			return snoozeDueMsg{account: i, at: at}
		case <-ctx.Done():
			return nil
		}
	}
}

// snoozeMarksMsg is an account's schedule as read now.
type snoozeMarksMsg struct {
	account int
	marks   snoozeMarks
	err     error
}

func (m snoozeMarksMsg) AccountIndex() int { return m.account }

// snoozeMarksCmd reads account i's schedule for its rows' marks.
func snoozeMarksCmd(ctx context.Context, a *accounts.Snoozing, i int, now time.Time) tea.Cmd {
	return func() tea.Msg {
		s := snoozeMarks{folder: a.SnoozeFolder()}
		var err error
		if s.snoozed, err = a.Snoozed(ctx); err == nil {
			if s.woken, err = a.Woken(ctx, now.Add(-wokenFor)); err == nil {
				s.next, err = a.NextWake(ctx)
			}
		}
		return snoozeMarksMsg{account: i, marks: s, err: err}
	}
}

// reloadSnoozeMarks reads account i's schedule again (after a listing,
// a snooze or an undo).
func (p *accountPanes) reloadSnoozeMarks(e *screen.Env, i int) tea.Cmd {
	if i < 0 || i >= len(p.accts) {
		return nil
	}
	s := screen.SnoozerOf(p.accts[i].acct)
	if s == nil {
		return nil
	}
	return snoozeMarksCmd(e.Ctx, s, i, e.Opts.Now())
}

// snoozeMarksArrived keeps an account's marks, and sets a timer for its
// soonest wake (one per wake time: a listing reads the marks again).
func (p *accountPanes) snoozeMarksArrived(e *screen.Env, msg snoozeMarksMsg) tea.Cmd {
	if msg.err != nil {
		return nil // snooze off, or the schedule unreadable: no marks
	}
	if p.snoozes == nil {
		p.snoozes = map[string]*snoozeMarks{}
	}
	name := p.accts[msg.account].acct.Name()
	marks := msg.marks
	if prev := p.snoozes[name]; prev != nil {
		marks.timer, marks.fired = prev.timer, prev.fired
	}
	p.snoozes[name] = &marks
	if marks.next.IsZero() || !marks.timer.IsZero() && !marks.next.Before(marks.timer) {
		return nil // nothing snoozed, or a timer runs for it (a later one's is harmless)
	}
	at := marks.next
	if !marks.fired.IsZero() && at.Before(marks.fired.Add(retryWake)) {
		at = marks.fired.Add(retryWake) // due still: tried a moment ago
	}
	marks.timer = at
	return wakeTimerCmd(e.Ctx, msg.account, at)
}

// snoozeNote is a row's snooze mark, shown before its subject: when a
// message in the snooze folder wakes, or that it has no wake time (the
// folder is the truth; the schedule lost it, or another client put it
// there), and "woken" on a message that came back.
func (p *accountPanes) snoozeNote(r model.Row) string {
	s := p.snoozes[r.ID.Account]
	if s == nil || r.MessageID == "" {
		return ""
	}
	if model.SameFolder(r.ID.Folder, s.folder) {
		if until, ok := s.snoozed[r.MessageID]; ok {
			return "[until " + until.Format("Mon 2 Jan 15:04") + "]"
		}
		return "[no wake time]"
	}
	if _, ok := s.woken[r.MessageID]; ok && model.SameFolder(r.ID.Folder, "INBOX") {
		return "[woken]"
	}
	return ""
}

// snoozeDue syncs an account whose soonest wake has come: the sync
// wakes it, and its steps read the marks again.
func (p *accountPanes) snoozeDue(e *screen.Env, msg snoozeDueMsg) tea.Cmd {
	if s := p.snoozes[p.accts[msg.account].acct.Name()]; s != nil && s.timer.Equal(msg.at) {
		s.timer, s.fired = time.Time{}, e.Opts.Now() // the next reading sets the next timer
	}
	return p.Load(e, msg.account)
}

// startSnooze opens the snooze picker for rows, all of accounts that
// snooze.
func (m *Model) startSnooze(rows []model.Row) tea.Cmd {
	if len(rows) == 0 {
		return nil
	}
	for _, a := range m.panes.accountsOf(rows) {
		if screen.SnoozerOf(a) == nil {
			m.frame.setStatus(fmt.Sprintf("snooze: %s cannot snooze (no schedule)", a.Name()), true)
			return nil
		}
	}
	m.show(modeSnooze, picker.StartSnooze(&m.env, rows, m.env.Opts.Now()))
	return nil
}

// snoozeApplier sends a batch to its account's Snooze.
func (p *accountPanes) snoozeApplier(e *screen.Env) snoozeApplier {
	return snoozeApplier{
		folder: func(account string) (string, bool) {
			i := p.index(account)
			if i < 0 {
				return "", false
			}
			s := screen.SnoozerOf(p.accts[i].acct)
			if s == nil {
				return "", false
			}
			return s.SnoozeFolder(), true
		},
		send: func(account string, intent int, folder string, uv uint32, msgs []model.Message, until time.Time) tea.Cmd {
			i := p.index(account)
			s := screen.SnoozerOf(p.accts[i].acct)
			ctx, timeout := e.Ctx, e.Opts.CallTimeout
			return func() tea.Msg {
				cctx, cancel := context.WithTimeout(ctx, timeout)
				defer cancel()
				res, err := s.Snooze(cctx, folder, uv, msgs, until)
				return appliedMsg{intent: intent, results: res, err: err}
			}
		},
	}
}

// snoozeApplier is the applier of Z: each account snoozes into its own
// snooze folder.
type snoozeApplier struct {
	folder func(account string) (string, bool)
	send   func(account string, intent int, folder string, uv uint32, msgs []model.Message, until time.Time) tea.Cmd
}

// snooze starts Z on rows: per account, one intent moving its batch to
// that account's snooze folder (so z undoes it like any move), sent
// through the account's Snooze, which records the wake time.
func (t *triageBox) snooze(rows []model.Row, until time.Time, apply snoozeApplier) (tea.Cmd, note) {
	group := t.t.Group()
	gs := newGroup(model.Op{Action: model.ActMove}, false, nil)
	gs.verb = "snoozed until " + until.Format("Mon 2 Jan 15:04")
	var batches map[string][]model.Message
	gs.order, batches = byAccount(rows)
	var cmds []tea.Cmd
	for _, name := range gs.order {
		msgs := batches[name]
		folder, ok := apply.folder(name)
		if !ok {
			continue
		}
		op := model.Op{Action: model.ActMove, To: folder}
		in := t.t.Begin(group, name, msgs[0].ID.Folder, op, msgs)
		t.intentGroup[in.ID] = group
		gs.pending++
		cmds = append(cmds, apply.send(name, in.ID, in.Folder, msgs[0].ID.UIDValidity, msgs, until))
	}
	t.groups[group] = gs
	t.clear()
	return tea.Batch(cmds...), note{status: "snoozing " + screen.Count(len(rows), "message") + "…"}
}
