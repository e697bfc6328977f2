package tui

import (
	"slices"
	"time"
	"unibox/ui/tui/screen"

	tea "github.com/charmbracelet/bubbletea"
)

type mode int

const (
	modeList mode = iota
	modeMessage
	modeDetails
	modePicker
	modeReview
	modeDrafts
	modeFolders // the folder picker (folderpick.go)
	modeSnooze
	modeQuit      // q while mail counts down (compose.QuitBox)
	modeScreener  // W: what waits in the screener (screening.View)
	modeProposals // P: rules agents proposed (proposals.View)
	modeAnswer    // I: answer the invitation on screen (answering.View)
	modeCount
)

// screenRow is a mode's row in the table: the one place a mode is looked
// up, for its body, header, help, keys and clash check.
type screenRow struct {
	name  string // for test failures and traces
	place string // how a key clash names it ("in the message view")
	// adapter builds the screen of a mode whose state and flows are still
	// the root's; nil: the screen is its own (Model.top), opened by show.
	adapter func(m *Model, now time.Time) screen.Screen
	// typesHelp: the help key is text typed into the screen (the snooze
	// picker's time), not the frame's help; a screen that types only at
	// times says so itself (screen.Typing).
	typesHelp bool
	// frameKeys: the unsubscribe box's answer and the undo of a send come
	// before the screen's own keys.
	frameKeys bool
	// unsubBox: U works here, and its box shows and waits for a y.
	unsubBox bool
	// actions are the [keys] actions the screen's keys mean; no two of
	// them may share a key (clashes).
	actions []string
}

// screens is the table, indexed by mode.
var screens = [modeCount]screenRow{
	modeList: {name: "list", place: "list", adapter: newListScreen, frameKeys: true, unsubBox: true, actions: []string{
		"up", "down", "top", "bottom", "page_up", "page_down", "open", "back", "quit",
		"next_account", "prev_account", "all_accounts", "refresh", "refresh_all", "details", "help",
		"toggle_read", "toggle_flag", "archive", "trash", "move", "select", "clear_selection", "undo",
		"filter", "search", "snooze", "compose", "drafts", "threads", "expand", "collapse", "unsubscribe", "folders", "screener", "proposals"}},
	// The attachment actions last: a clash names the later action as the
	// one checked, and the attachments' clashes read as they always have.
	modeMessage: {name: "message", place: "message view", adapter: newMessageScreen, frameKeys: true, unsubBox: true, actions: []string{
		"up", "down", "page_up", "page_down", "back", "quit", "help",
		"toggle_read", "toggle_flag", "archive", "trash", "move", "undo",
		"compose", "reply", "reply_all", "forward", "next_in_thread", "prev_in_thread",
		"open", "snooze", "unsubscribe", "invitation", "attachments", "save_attachment"}},
	modeDetails: {name: "details", place: "account details", frameKeys: true,
		actions: []string{"back", "quit", "details", "refresh", "help", "undo"}},
	// The pickers move and filter as the list does (picker/picklist.go).
	modePicker: {name: "picker", place: "move picker", actions: pickerActions},
	modeReview: {name: "review", place: "review screen", adapter: newReviewScreen, actions: []string{
		"send", "edit", "postpone", "discard", "own_from", "attach", "complete", "back", "help",
		"down", "up", "page_down", "page_up", "top", "bottom", "open", "edit_recipients"}},
	modeDrafts: {name: "drafts", place: "drafts view",
		actions: []string{"back", "quit", "drafts", "open", "send", "discard", "down", "up", "help"}},
	modeFolders: {name: "folders", place: "folder picker", actions: pickerActions},
	modeSnooze:  {name: "snooze", place: "snooze picker", typesHelp: true, actions: []string{"back", "open"}},
	modeQuit:    {name: "quit", place: "quit question", actions: []string{"send", "quit", "back"}},
	modeScreener: {name: "screener", place: "screener", actions: []string{
		"back", "quit", "screener", "open", "down", "up", "help", "screen_in", "screen_out", "screen_out_domain"}},
	modeProposals: {name: "proposals", place: "rule proposals", actions: []string{
		"back", "quit", "proposals", "down", "up", "help", "accept_proposal", "reject_proposal"}},
	modeAnswer: {name: "answer", place: "invitation's answer screen", actions: []string{
		"back", "invitation", "down", "up", "help", "rsvp_accept", "rsvp_tentative", "rsvp_decline"}},
}

// promptRow is the To: and Cc: prompts' keys (asking.go): not a mode,
// since they ask over the list, the message view and the review, but
// checked for clashes as a screen is; every other key is text there.
var promptRow = screenRow{name: "recipients", place: "To: prompt", actions: []string{"open", "back", "complete", "complete_prev"}}

// pickerActions are the move and folder pickers' keys: the list's keys
// move, its filter key starts the filter, and ? is help until it does.
var pickerActions = []string{"back", "open", "filter", "up", "down", "top", "bottom", "page_up", "page_down", "help"}

// String names the view, for test failures and traces.
func (md mode) String() string {
	if md < 0 || md >= modeCount {
		return "unknown"
	}
	return screens[md].name
}

// row is the mode's row.
func (m *Model) row() screenRow { return screens[m.frame.mode] }

// screenAt is the mode's screen; now is the frame's clock (the list's
// header counts down with the bar).
func (m *Model) screenAt(now time.Time) screen.Screen {
	if a := screens[m.frame.mode].adapter; a != nil {
		return a(m, now)
	}
	return m.top
}

// show opens a screen of its own in mode md.
func (m *Model) show(md mode, s screen.Screen) {
	m.frame.mode, m.top = md, s
}

// setMode changes the body to an adapted view (a screen of its own is
// opened by show, never by setMode), closing any screen of its own.
func (m *Model) setMode(md mode) {
	m.frame.mode = md
	if screens[md].adapter != nil {
		m.top = nil
	}
}

// updateScreen hands msg to the mode's screen and keeps the screen that
// follows; the messages it tells are routed at once, in order.
func (m *Model) updateScreen(msg tea.Msg) tea.Cmd {
	own := screens[m.frame.mode].adapter == nil // an adapted screen changes the mode itself
	next, cmd := m.screenAt(m.env.Opts.Now()).Update(msg)
	var said []tea.Msg
	if t, ok := next.(screen.Told); ok {
		next, said = t.Screen, t.Msgs
	}
	if own {
		if next == nil {
			m.setMode(modeList)
		} else {
			m.top = next
		}
	}
	m.env.Tell(said...)
	return tea.Batch(cmd, m.heard())
}

// heard routes what was told during an update (a screen's tell, a
// component's env.tell), in order, as any message is routed.
func (m *Model) heard() tea.Cmd {
	said := m.env.Said
	m.env.Said = nil
	var cmds []tea.Cmd
	for _, msg := range said {
		_, c := m.route(msg)
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

// toTop hands a result to the screen of its own on screen, if any: the
// one that asked for it takes it, any other ignores it.
func (m *Model) toTop(msg tea.Msg) tea.Cmd {
	if m.top == nil {
		return nil
	}
	return m.updateScreen(msg)
}

// clashes lists the keys bound to two actions of one screen (as
// `archive = ["e", "A"]` would be in the message view), screen by screen
// in the table's order: each screen's row names the actions its keys
// mean, so a key is checked where it applies and nowhere else.
func clashes(k screen.KeyMap) []screen.Clash {
	acts := k.Actions()
	var out []screen.Clash
	for _, row := range append(screens[:], promptRow) {
		for i, a := range row.actions {
			for _, kk := range acts[a].Keys() {
				for _, o := range row.actions[:i] {
					if slices.Contains(acts[o].Keys(), kk) {
						out = append(out, screen.Clash{Action: a, Other: o, Key: kk, Screen: row.place})
					}
				}
			}
		}
	}
	return out
}
