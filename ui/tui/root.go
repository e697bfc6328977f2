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
)

// Options configure the TUI.
type Options struct {
	Accounts        []Account
	Keys            map[string][]string // [keys] rebindings
	PageSize        int                 // messages per account page (default 50)
	RefreshInterval time.Duration       // periodic refresh; 0 disables
	DateFormat      string              // layout for dates older than a week
	MarkReadOnOpen  bool
	CallTimeout     time.Duration // bound on each account operation (default 60 s)
	// Now is the clock (fixed in golden tests); nil uses time.Now.
	Now func() time.Time
	// NoTick stops the once-a-second redraw (golden tests).
	NoTick bool
}

type mode int

const (
	modeList mode = iota
	modeMessage
	modeDetails
	modePicker
)

// Model is the root model. It routes; components render.
type Model struct {
	ctx    context.Context
	cancel context.CancelFunc
	opts   Options
	keys   KeyMap
	styles Styles

	accts      []*acctState
	subs       []<-chan accounts.Health // one status subscription per account
	unsubs     []func()
	inbox      *model.Inbox
	triage     *model.Triage
	list       listModel
	viewer     viewer
	help       help.Model
	helpPageNo int // the page of the full help on screen (see helpPages)
	picker     picker
	filter     filterBox

	selected    map[model.MessageID]bool
	groups      map[int]*groupState // user actions still waiting for answers
	intentGroup map[int]int         // intent → its user action
	pickRows    []model.Row         // what a move applies to, while picking
	pickReq     uint64
	search      *searchState

	mode       mode
	focus      int // account index, or -1 for all accounts
	detailsFor int
	width      int
	height     int
	status     string
	statusErr  bool
	nextReq    uint64
	openReq    uint64
	tags       map[string]string
	tagW       int

	unread        map[string]int // per account, counted on rebuild, not per frame
	detailsStderr string         // the details view's stderr tail, read on events
}

// New builds the model and subscribes to every account's status. Call
// Close after the program ends.
func New(opts Options) (*Model, error) {
	if opts.PageSize <= 0 {
		opts.PageSize = 50
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 60 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	keys := DefaultKeyMap()
	if err := keys.Rebind(opts.Keys); err != nil {
		return nil, fmt.Errorf("[keys]: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Model{ctx: ctx, cancel: cancel, opts: opts, keys: keys, styles: DefaultStyles(), focus: -1,
		width: 80, height: 24, help: help.New(), tags: map[string]string{}}
	m.help.FullSeparator = "  "
	var names []string
	for _, a := range opts.Accounts {
		names = append(names, a.Name())
		st := &acctState{acct: a, health: a.Health()}
		m.accts = append(m.accts, st)
	}
	m.inbox = model.NewInbox(names)
	m.triage = model.NewTriage(m.inbox)
	m.selected = map[model.MessageID]bool{}
	m.unread = map[string]int{}
	m.groups = map[int]*groupState{}
	m.intentGroup = map[int]int{}
	m.filter = newFilterBox()
	m.tags, m.tagW = accountTags(names)
	m.list = listModel{styles: m.styles, keys: keys, dateFormat: opts.DateFormat}
	m.viewer = newViewer(m.styles, opts.Now().Location())
	m.layout()
	return m, nil
}

// Close ends every command and subscription of the UI.
func (m *Model) Close() {
	m.cancel()
	for _, u := range m.unsubs {
		u()
	}
	m.unsubs = nil
}

// Init subscribes to every account and asks each for its first page: the
// accounts load side by side, each at its own speed.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	for i, a := range m.accts {
		ch, unsub := a.acct.Watch()
		m.subs = append(m.subs, ch)
		m.unsubs = append(m.unsubs, unsub)
		cmds = append(cmds, waitStatus(m.ctx, i, ch), m.load(i))
	}
	if !m.opts.NoTick {
		cmds = append(cmds, tick())
	}
	cmds = append(cmds, autoRefresh(m.opts.RefreshInterval))
	return tea.Batch(cmds...)
}

// Update routes every message to its handler.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	case statusMsg:
		return m, m.handleConnEvent(msg)
	case listedMsg, openedMsg, refreshedMsg, autoRefreshMsg, appliedMsg, foldersMsg, searchedMsg:
		return m, m.handleAccountMsg(msg)
	case tickMsg:
		return m, tick()
	}
	if m.mode == modeMessage {
		var cmd tea.Cmd
		m.viewer, cmd = m.viewer.update(msg)
		return m, cmd
	}
	return m, nil
}

// layout sizes the components from the window.
func (m *Model) layout() {
	bodyH := max(m.height-3-lipgloss.Height(m.helpPage()), 1) // bar, header, status line, help
	m.list.width, m.list.height = m.width, bodyH
	m.list = m.list.clamp()
	m.viewer = m.viewer.setSize(m.width, bodyH)
	m.help.Width = m.width
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
