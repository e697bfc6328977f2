package tui

import (
	"context"
	"time"
	"unibox/ui/tui/screen"

	tea "github.com/charmbracelet/bubbletea"
)

// The first screen before the rest. A first sync's later steps (pages of
// 200: a FETCH, the provider child's parsing, a store write) take the
// cores of a small machine from the accounts still bringing their first
// rows, which then come later than a plain listing's would. So an
// account's next step waits (parked) until every account's first answer
// has come (rows or a failure), or a second (FirstScreenWait) has passed since the
// launch: an account that does not answer holds the others' background
// sync that long at most.

// firstScreenWait bounds the wait for the first screen by default.
const firstScreenWait = time.Second

// firstScreenMsg ends the wait for the first screen, whoever has answered.
type firstScreenMsg struct{}

// resumeMsg takes the parked steps once the first screen is drawn.
type resumeMsg struct{}

func (firstScreenMsg) AccountIndex() int { return screen.NoAccount }
func (resumeMsg) AccountIndex() int      { return screen.NoAccount }

// firstScreenTimer ends the wait after d; it ends with the UI (ctx),
// where a tea.Tick would outlive it.
func firstScreenTimer(ctx context.Context, d time.Duration) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return firstScreenMsg{}
		case <-ctx.Done():
			return nil
		}
	}
}

// firstScreenPending says whether some account has not answered its first
// request yet (and the wait is not over).
func (p *accountPanes) firstScreenPending() bool {
	if p.screenDone {
		return false
	}
	for _, a := range p.accts {
		if !a.answered {
			return true
		}
	}
	return false
}

// resumeIfDrawn ends the wait once every account has answered, after the
// frame that shows the last answer is on the screen (as the listings wait
// for the stored rows' frame: see restored).
func (p *accountPanes) resumeIfDrawn(e *screen.Env) tea.Cmd {
	if p.screenDone || p.firstScreenPending() {
		return nil
	}
	p.screenDone = true
	return tea.Tick(firstFrame, func(time.Time) tea.Msg { return resumeMsg{} })
}

// resume ends the wait for the first screen and takes the parked steps.
func (p *accountPanes) resume(e *screen.Env) tea.Cmd {
	p.screenDone = true
	var cmds []tea.Cmd
	if f := e.Opts.FirstScreen; f != nil && !p.begun {
		p.begun = true
		cmds = append(cmds, func() tea.Msg { f(); return nil })
	}
	for i, a := range p.accts {
		if !a.parked {
			continue
		}
		a.parked = false
		if a.loading {
			continue // a newer request runs: its chain goes on
		}
		*a = a.Load(e.Next())
		cmds = append(cmds, syncCmd(e.Ctx, a.acct, screen.StoredOf(a.acct), i, a.req, e.Opts.PageSize, 0, e.Opts.CallTimeout))
	}
	return tea.Batch(cmds...)
}
