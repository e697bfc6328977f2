package compose

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/calendaradd"
	"unibox/model/invite"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// An accepted invitation goes to the person's calendar program ([calendar]
// add_cmd, issue 41) once its answer is sent: not when it is queued,
// since an undo takes the answer back. Its failure is said on the status
// line and in the account's history; the answer has gone either way.

// calendarAddCmd runs add_cmd on the event of the answer w, when it
// accepted an invitation and add_cmd is set; nil otherwise.
func calendarAddCmd(e *screen.Env, w *WaitingSend) tea.Cmd {
	room := e.Opts.Mailroom
	if w == nil || room == nil || len(room.CalendarAdd) == 0 {
		return nil
	}
	r := w.base.RSVP
	if r == nil || r.Response != invite.Accepted || r.Event == "" {
		return nil
	}
	argv, event, summary, ctx := room.CalendarAdd, []byte(r.Event), textsafe.Line(r.Summary), e.Ctx
	noter := screen.CalendarNoterOf(w.acct)
	return func() tea.Msg {
		err := calendaradd.Run(ctx, argv, event)
		text := fmt.Sprintf("added to your calendar: %s", summary)
		if err != nil {
			text = fmt.Sprintf("accepted %s, but add_cmd failed: %s", summary, textsafe.Line(err.Error()))
		}
		if noter != nil {
			noter.CalendarEvent(text)
		}
		return screen.NoteMsg{Text: text, Bad: err != nil}
	}
}
