package tui

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/details"
	"unibox/ui/tui/message"
	"unibox/ui/tui/notify"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/proposals"
	"unibox/ui/tui/recipients"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screening"
	"unibox/ui/tui/threads"
	"unibox/ui/tui/unsub"
)

// Model is the root model: it holds the components and routes keys and
// messages to them; each component owns its state.
type Model struct {
	env     screen.Env   // what every component runs with
	frame   frame        // size, mode, status line, help
	panes   accountPanes // one pane per account: health, requests, unread
	inbox   *model.Inbox // every account's rows, merged
	list    listModel
	viewer  message.Viewer
	filter  filterBox
	search  searchBox
	triage  triageBox
	notify  notify.Notifier
	compose compose.Composer
	threads threads.View
	unsub   unsub.Box
	folder  folderView // another folder on screen (folders.go)
	ask     askBox     // the To: or Cc: prompt on the status line (asking.go)
	// top is the mode's screen when it is one of its own (the details,
	// the pickers, the drafts view); nil under an adapted one (screens.go).
	top screen.Screen
	// behind is the screener a message was opened from: back in the
	// message view returns to it.
	behind *screening.View
	// toReview is how many rules agents proposed wait for review (the
	// header's "2 rules to review").
	toReview int
}

// frame is the screen around the components: its size, which view has
// the body, the status line and the help.
type frame struct {
	mode      mode
	width     int
	height    int
	status    string
	statusErr bool
	// statusFrom is the account whose failure the status line shows ("" for
	// anything else): the line is cleared when that account is connected
	// again, so a red error never sits beside a green badge.
	statusFrom string
	help       help.Model
	helpPage   int    // the page of the full help on screen (see helpPages)
	title      string // the terminal title last set
	// notifyFailure is notify_cmd's last failure as the notifier told it
	// (notifyFailureMsg), for the details; "" after a success.
	notifyFailure string
	// farewell is what the UI says as it ends (compose.FarewellMsg): what
	// became of mail that was counting down when the person quit.
	farewell string
}

// New builds the model and subscribes to every account's status. Call
// Close after the program ends.
func New(opts screen.Options) (*Model, error) {
	if opts.PageSize <= 0 {
		opts.PageSize = 50
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 60 * time.Second
	}
	if opts.FirstScreenWait <= 0 {
		opts.FirstScreenWait = firstScreenWait
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	keys := screen.DefaultKeyMap()
	if err := keys.Rebind(opts.Keys); err != nil {
		return nil, fmt.Errorf("[keys]: %w", err)
	}
	if c := clashes(keys); len(c) > 0 {
		return nil, fmt.Errorf("[keys]: %w", c[0])
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Model{env: screen.Env{Ctx: ctx, Cancel: cancel, Opts: opts, Keys: keys, Styles: screen.DefaultStyles()},
		frame: frame{width: 80, height: 24, help: help.New()}}
	m.frame.help.FullSeparator = "  "
	var names []string
	for _, a := range opts.Accounts {
		names = append(names, a.Name())
		m.panes.accts = append(m.panes.accts, &accountPane{acct: a, health: a.Health()})
	}
	m.panes.focus, m.panes.unread = -1, map[string]accounts.Count{}
	m.panes.tags, m.panes.tagW = accountTags(names)
	m.inbox = model.NewInbox(names)
	m.triage = triageBox{keys: keys, t: model.NewTriage(m.inbox), selected: map[model.MessageID]bool{},
		groups: map[int]*groupState{}, intentGroup: map[int]int{}}
	m.filter = newFilterBox(keys)
	m.list = listModel{styles: m.env.Styles, keys: keys, now: opts.Now, tags: m.panes.tags, tagW: m.panes.tagW,
		empty: func() string { return m.panes.emptyText() }, marked: func(id model.MessageID) bool { return m.triage.selected[id] },
		drafted: func(id model.MessageID) bool { return m.compose.Drafted[id] }, dateFormat: opts.DateFormat,
		snoozeNote: m.panes.snoozeNote}
	m.viewer = message.New(&m.env, opts.Now().Location())
	m.unsub = unsub.New(&m.env)
	m.threads = threads.New(&m.env, m.inbox)
	m.compose = compose.New(&m.env)
	m.notify = notify.New(ctx, m.env.Tell, opts.NotifyCmd, screen.Hint(keys.Details), opts.NotifyWindow, opts.NotifyTimeout).Quieting(opts.NotifyQuiet)
	m.layout()
	return m, nil
}

// Farewell is what to print on the terminal once the program has ended
// ("" for nothing).
func (m *Model) Farewell() string { return m.frame.farewell }

// Close ends every command and subscription of the UI.
func (m *Model) Close() {
	m.env.Cancel()
	for _, u := range m.panes.unsubs {
		u()
	}
	m.panes.unsubs = nil
	_ = m.viewer.Close() // the opened attachments' private copies
}

// Init subscribes to every account, draws what the local store remembers
// of each, and then asks each for its first page: the accounts load side
// by side, each at its own speed, over rows that are there from the start.
// The store is read before any provider starts, because starting twenty
// children takes both cores of a small machine for a while.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	remembering := map[int]*accounts.Stored{}
	for i, a := range m.panes.accts {
		ch, unsub := a.acct.Watch()
		m.panes.subs = append(m.panes.subs, ch)
		m.panes.unsubs = append(m.panes.unsubs, unsub)
		cmds = append(cmds, waitStatus(m.env.Ctx, i, ch))
		if p := screen.WatchingOf(a.acct); p != nil {
			cmds = append(cmds, waitPush(m.env.Ctx, i, p.Pushes()))
		}
		if r := screen.StoredOf(a.acct); r != nil {
			remembering[i] = r
		} else {
			cmds = append(cmds, m.panes.Load(&m.env, i))
		}
	}
	if len(remembering) > 0 {
		cmds = append(cmds, restoreCmd(m.env.Ctx, remembering, m.env.Opts.PageSize))
	}
	if !m.env.Opts.NoTick {
		cmds = append(cmds, tick())
	}
	cmds = append(cmds, autoRefresh(m.env.Opts.RefreshInterval), firstScreenTimer(m.env.Ctx, m.env.Opts.FirstScreenWait), m.countProposals())
	if room := m.env.Opts.Mailroom; room != nil {
		cmds = append(cmds, compose.ReadOutboxCmd(room))
		if room.Runner != nil {
			cmds = append(cmds, compose.WaitOutboxCmd(m.env.Ctx, room))
		}
		cmds = append(cmds, compose.WatchDraftsCmd(m.env.Ctx, room, ""))
	}
	return tea.Batch(cmds...)
}

// Update routes every message to its handler, then keeps the terminal
// title on the unread total.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if keys, ok := keyBurst(msg); ok {
		return m.updateBurst(keys)
	}
	_, cmd := m.route(msg)
	if t := m.panes.title(); m.env.Opts.Title && t != m.frame.title {
		m.frame.title = t
		cmd = tea.Batch(cmd, tea.SetWindowTitle(t))
	}
	return m, cmd
}

// route sends a message to its handler.
func (m *Model) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.frame.width, m.frame.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	case recipients.CompletedMsg:
		return m, m.asking(msg)
	case recipients.AnsweredMsg, recipients.CancelledMsg:
		return m, m.asked(msg)
	case compose.AskRecipientsMsg:
		return m, m.askRecipients(msg)
	case accountMsg:
		if i := msg.AccountIndex(); i < screen.NoAccount || i >= len(m.panes.accts) {
			return m, nil // not an account of this UI
		}
		if f := m.env.Opts.Activity; f != nil {
			f()
		}
		return m, m.handleAccountMsg(msg)
	case tickMsg:
		return m, tick()
	case indexedMsg: // every account's at once
		return m, m.indexed(msg)
	case message.ProgressMsg, message.SavedMsg, message.AttachOpenedMsg: // the viewer's, wherever the view has gone
		return m, tea.Batch(m.viewer.AttachMsg(msg), m.heard())
	case compose.FarewellMsg:
		m.frame.farewell = msg.Text
		return m, nil
	case screen.NoteMsg, notify.FailureMsg, unsub.ArchiveSenderMsg, threads.RowsMsg, threads.OpenRowMsg, compose.ReviewingMsg, picker.MovePickedMsg, picker.SnoozePickedMsg, picker.FolderPickedMsg, details.RefreshMsg, compose.SentMarkMsg,
		screening.DecidedMsg, screening.OpenMsg, proposals.AnsweredMsg, proposalsCountMsg:
		return m, m.handleScreenMsg(msg)
	}
	return m, m.updateScreen(msg) // the message view's viewport; any other screen ignores it
}

// layout sizes the components from the window.
func (m *Model) layout() {
	if m.ask.prompt != nil {
		p := m.ask.prompt.Resized(m.frame.width)
		m.ask.prompt = &p
	}
	help := lipgloss.Height(m.frame.helpPageOf(m.helpKeys(), m.env.Keys.Help))
	if u := m.under(help); u != "" {
		help += lipgloss.Height(u) // the prompt's list, over the help
	}
	bodyH := max(m.frame.height-3-help, 1) // bar, header, status line, help
	m.list.width, m.list.height = m.frame.width, bodyH
	m.env.Rows = bodyH
	m.list = m.list.clamp()
	m.viewer = m.viewer.SetSize(m.frame.width, bodyH)
	m.frame.help.Width = m.frame.width
}

// accountTags are short account labels for the rows, all the same width.
func accountTags(names []string) (map[string]string, int) {
	w := 0
	tags := map[string]string{}
	for _, n := range names {
		tags[n] = textsafe.Cell(n)
		w = max(w, textsafe.Width(tags[n]))
	}
	return tags, min(max(w, 3), 10)
}
