package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// listModel is the unified message list. It renders only the rows that
// are visible, and keeps the cursor on the selected message when rows
// arrive or leave.
type listModel struct {
	styles screen.Styles
	keys   screen.KeyMap
	now    func() time.Time
	tags   map[string]string // account → its tag, all tagW wide
	tagW   int
	// What the rows are drawn with, read from their owners when drawn:
	// the text of an empty list (loading or not) and the selection.
	empty      func() string
	marked     func(model.MessageID) bool
	drafted    func(model.MessageID) bool // a reply waits in the drafts: ✎
	snoozeNote func(model.Row) string     // [woken], [until …], [no wake time] (snooze.go)
	rows       []model.Row                // shared with the inbox: read only
	cursor     int
	offset     int
	height     int
	width      int
	sel        model.MessageID // the selected message, followed across updates
	touched    bool            // the user has moved the cursor
	dateFormat string
}

// setRows replaces the rows, keeping the cursor on the same message if it
// is still there, else at the same position.
func (l listModel) setRows(rows []model.Row) listModel {
	l.rows = rows
	if !l.touched {
		// Until the user moves, the cursor stays on the newest message
		// while the accounts load side by side.
		l.cursor = 0
		return l.clamp()
	}
	if l.sel != (model.MessageID{}) {
		for i, r := range rows {
			if r.ID == l.sel {
				l.cursor = i
				return l.clamp()
			}
		}
	}
	return l.clamp()
}

func (l listModel) clamp() listModel {
	if l.cursor >= len(l.rows) {
		l.cursor = len(l.rows) - 1
	}
	if l.cursor < 0 {
		l.cursor = 0
	}
	if len(l.rows) > 0 {
		l.sel = l.rows[l.cursor].ID
	} else {
		l.sel = model.MessageID{}
	}
	if l.height > 0 {
		if l.cursor < l.offset {
			l.offset = l.cursor
		}
		if l.cursor >= l.offset+l.height {
			l.offset = l.cursor - l.height + 1
		}
		if max := len(l.rows) - l.height; l.offset > max {
			l.offset = max
		}
	}
	if l.offset < 0 {
		l.offset = 0
	}
	return l
}

func (l listModel) selected() (model.Row, bool) {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return model.Row{}, false
	}
	return l.rows[l.cursor], true
}

// after is the row below id's in list order, nil when id's is the last
// or not in the list.
func (l listModel) after(id model.MessageID) *model.Row {
	for i, r := range l.rows {
		if r.ID == id && i+1 < len(l.rows) {
			next := l.rows[i+1]
			return &next
		}
	}
	return nil
}

// atEnd reports the cursor on the last loaded row (time to page).
func (l listModel) atEnd() bool { return len(l.rows) > 0 && l.cursor == len(l.rows)-1 }

// owns says whether a key moves the cursor (update takes it).
func (l listModel) owns(msg tea.KeyMsg) bool {
	return key.Matches(msg, l.keys.Down, l.keys.Up, l.keys.Top, l.keys.Bottom, l.keys.PageDown, l.keys.PageUp)
}

// Update moves the cursor by the KeyMap's keys; the root pages when it
// reaches the last row (see atEnd).
func (l listModel) Update(msg tea.Msg) (listModel, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return l, nil
	}
	switch {
	case key.Matches(k, l.keys.Down):
		return l.Step(1), nil
	case key.Matches(k, l.keys.Up):
		return l.Step(-1), nil
	case key.Matches(k, l.keys.Top):
		return l.Step(-len(l.rows)), nil
	case key.Matches(k, l.keys.Bottom):
		return l.Step(len(l.rows)), nil
	case key.Matches(k, l.keys.PageDown):
		return l.Step(max(1, l.height-1)), nil
	case key.Matches(k, l.keys.PageUp):
		return l.Step(-max(1, l.height-1)), nil
	}
	return l, nil
}

// follow keeps the cursor on id's row from the next setRows on.
func (l listModel) follow(id model.MessageID) listModel {
	l.sel, l.touched = id, true
	return l
}

// step moves the cursor n rows (the user's move: the cursor no longer
// stays on the newest row).
func (l listModel) Step(n int) listModel {
	l.cursor += n
	l.touched = true
	return l.clamp()
}

// ShortHelp and FullHelp are the list's: every binding of the KeyMap.
func (l listModel) ShortHelp() []key.Binding  { return l.keys.ShortHelp() }
func (l listModel) FullHelp() [][]key.Binding { return l.keys.FullHelp() }

// View draws the rows in the size layout gave the list.
func (l listModel) View(width, height int) string {
	l.width, l.height = width, height
	now, tags, tagW := l.now(), l.tags, l.tagW
	if len(l.rows) == 0 {
		return l.styles.Dim.Render(textsafe.Fit(l.empty(), l.width)) + strings.Repeat("\n", max(0, l.height-1))
	}
	// The marks are four one-column characters and the unread slot, as
	// wide as "•" (two columns on an ambiguous-wide terminal): the same on
	// every row, so every row has the same columns, computed once.
	c := layoutColumns(l.width-markW()-1, tagW)
	tags = tagCells(tags, c.tag)
	var b strings.Builder
	end := min(len(l.rows), l.offset+l.height)
	for i := l.offset; i < end; i++ {
		if i > l.offset {
			b.WriteByte('\n')
		}
		b.WriteString(l.renderRow(l.rows[i], i == l.cursor, l.marked(l.rows[i].ID), l.drafted != nil && l.drafted(l.rows[i].ID), now, tags[l.rows[i].ID.Account], c))
	}
	for i := end - l.offset; i < l.height; i++ {
		b.WriteByte('\n')
	}
	return b.String()
}

// renderRow: cursor, marks (* selected, N fresh, ✎ a reply waits in the
// drafts, • unread, r replied or f forwarded, ! flagged, ~ stale),
// account tag, sender, subject, relative date. Every string from a server
// is sanitised and measured by display width.
func (l listModel) renderRow(r model.Row, cursor, selected, drafted bool, now time.Time, tag string, c columns) string {
	mark := func(on bool, c string) string {
		if on {
			return c
		}
		return " "
	}
	cur := " "
	if cursor {
		cur = ">"
	}
	seen, flagged, from, subject := r.Seen, r.Flagged, sender(r.From), textsafe.Line(r.Subject)
	if c := r.Thread; c != nil && !r.Member {
		// A conversation's row: its newest subject, everyone in it, and
		// marks when any message has them.
		seen, flagged = c.Unread == 0, c.Flagged
		from = strings.Join(c.People, ", ")
		if c.Count > 1 {
			subject = fmt.Sprintf("%s (%d)", subject, c.Count)
		}
	} else if r.Member {
		subject = "  " + subject // a message of an opened conversation
		if !strings.EqualFold(r.ID.Folder, "INBOX") {
			subject = "  [" + textsafe.Line(r.ID.Folder) + "] " + textsafe.Line(r.Subject) // a reply in Sent, say
		}
	}
	if n := r.Invitation.Mark(); n != "" {
		subject = n + " " + subject
	}
	if l.snoozeNote != nil {
		if n := l.snoozeNote(r); n != "" {
			subject = n + " " + subject
		}
	}
	unread := mark(!seen, "•")
	switch {
	case r.Fresh:
		unread = "N"
	case drafted:
		unread = "✎" // a draft answers it: review it in D (the row's style still says unread)
	case seen && r.Answered:
		unread = "r" // replied to, as mutt marks it; a reply says more than a forward
	case seen && r.Forwarded:
		unread = "f" // forwarded ($Forwarded); ! is flagged
	}
	unread = textsafe.Fit(unread, textsafe.Width("•"))
	marks := cur + mark(selected, "*") + unread + mark(flagged, "!") + mark(r.Stale, "~")
	date := relDate(r.Date, now, l.dateFormat)
	line := marks + " " + textsafe.Fit(tag, c.tag) + " " +
		textsafe.Fit(textsafe.Line(from), c.sender) + " " +
		textsafe.Fit(subject, c.subject) + " " +
		padLeft(date, dateW)
	line = textsafe.Fit(line, l.width)
	st := l.styles.Row
	switch {
	case cursor:
		st = l.styles.RowSelected
	case r.Stale:
		st = l.styles.RowStale
	case r.Fresh:
		st = l.styles.Fresh
	case !seen:
		st = l.styles.Unread
	}
	return st.Render(line)
}

// markW is the width of a row's marks.
func markW() int { return 4 + textsafe.Width("•") }

// Column widths of a row after its marks. The date keeps its 7 columns
// at every width; below 80 columns the sender, then the account tag give
// up columns until the subject has a fair share, so a 40-column row still
// says what the mail is about and when it came.
const (
	dateW      = 7
	senderFull = 18
	senderMin  = 8
	tagMin     = 4
)

type columns struct{ tag, sender, subject int }

// layoutColumns shares w columns (tag, sender, subject and date, with a
// space after each of the first three) among the columns.
func layoutColumns(w, tagW int) columns {
	c := columns{tag: tagW, sender: senderFull}
	rest := w - 3 - dateW // subject, tag and sender share this
	c.subject = rest - c.tag - c.sender
	need := min(20, rest/2) - c.subject // the subject's fair share
	if cut := min(max(need, 0), c.sender-senderMin); cut > 0 {
		c.sender -= cut
		c.subject += cut
		need -= cut
	}
	if cut := min(max(need, 0), c.tag-tagMin); cut > 0 {
		c.tag -= cut
		c.subject += cut
	}
	c.subject = max(c.subject, 1)
	return c
}

// tagCells cuts the account tags to w columns, from the end; tags that
// would then read the same ("Account 01", "Account 02" as "Acc…") are cut
// in the middle instead ("A…01"), so every row still says its account.
func tagCells(tags map[string]string, w int) map[string]string {
	cells := make(map[string]string, len(tags))
	count := map[string]int{}
	for name, tag := range tags {
		cells[name] = textsafe.Fit(tag, w)
		count[cells[name]]++
	}
	for name, tag := range tags {
		if count[cells[name]] > 1 {
			cells[name] = textsafe.FitMiddle(tag, w)
		}
	}
	return cells
}

func padLeft(s string, w int) string {
	if n := textsafe.Width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return textsafe.Fit(s, w)
}

// relDate is a compact relative date: "now", "5m", "3h", "Mon", "Nov 28",
// "May '24" (or the configured layout for dates older than a week).
func relDate(t, now time.Time, layout string) string {
	if t.IsZero() {
		return "?"
	}
	d := now.Sub(t)
	t = t.In(now.Location())
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d < 7*24*time.Hour:
		return t.Format("Mon")
	case layout != "":
		return t.Format(layout)
	case t.Year() == now.Year():
		return t.Format("Jan 2")
	}
	return t.Format("Jan '06")
}

// sender is who a row is from; a message without a From says so.
func sender(a model.Address) string {
	if s := textsafe.Line(a.Display()); s != "" {
		return s
	}
	return "(no sender)"
}
