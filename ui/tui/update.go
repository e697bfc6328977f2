package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/query"
	"unibox/model/textsafe"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/details"
	"unibox/ui/tui/message"
	"unibox/ui/tui/notify"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/threads"
	"unibox/ui/tui/unsub"
)

// handleKey routes a key: the filter's while it is open, else the frame's
// keys where the mode's row takes them, else the mode's screen.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if m.ask.prompt != nil {
		return m.asking(msg)
	}
	if m.filter.active {
		return m.handleFilterKey(msg)
	}
	row := m.row()
	typing, _ := m.screenAt(m.env.Opts.Now()).(screen.Typing)
	helpKey := !row.typesHelp && (typing == nil || !typing.Typing()) && key.Matches(msg, m.env.Keys.Help)
	if row.frameKeys || helpKey {
		asking := m.unsub.Asking()
		var cmd tea.Cmd
		m.unsub, cmd = m.unsub.Update(msg) // any key takes its box away
		if asking {
			return tea.Batch(cmd, m.heard())
		}
		if cmd, ok := m.undoSendKey(msg); ok {
			return cmd
		}
	}
	if helpKey {
		// ? opens the help, steps through its pages when the terminal
		// cannot hold it at once, and closes it after the last.
		if m.frame.help.ShowAll && m.frame.helpPage+1 < len(m.frame.helpPages(m.helpKeys(), m.env.Keys.Help)) {
			m.frame.helpPage++
		} else {
			m.frame.help.ShowAll, m.frame.helpPage = !m.frame.help.ShowAll, 0
		}
		m.layout()
		return nil
	}
	return m.updateScreen(msg)
}

func (m *Model) handleListKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, ok := m.folderKey(msg); ok {
		return cmd
	}
	r, onRow := m.list.selected()
	if km := (threads.KeyMsg{Key: msg, Row: r, OnRow: onRow}); m.threads.Takes(km) {
		var cmd tea.Cmd
		m.threads, cmd = m.threads.Update(km)
		return cmd
	}
	if m.list.owns(msg) {
		m.list, _ = m.list.Update(msg)
		return m.pageIfAtEnd()
	}
	if cmd := m.handleActionKey(msg, false); cmd != nil {
		return cmd
	}
	switch {
	case key.Matches(msg, m.env.Keys.Back):
		if m.filter.text() != "" {
			m.filter = m.filter.clear()
			m.dropSearch()
			m.rebuild()
		} else if len(m.triage.selected) > 0 {
			m.triage.clear()
		}
	case key.Matches(msg, m.env.Keys.Quit):
		if room := m.env.Opts.Mailroom; room != nil && room.Runner != nil {
			if soon := m.compose.Soon(m.env.Opts.Now()); len(soon) > 0 {
				m.show(modeQuit, compose.NewQuit(&m.env, soon)) // mail counting down: ask first
				return nil
			}
		}
		return tea.Quit
	case key.Matches(msg, m.env.Keys.Open):
		return m.open()
	case key.Matches(msg, m.env.Keys.NextAccount):
		if m.panes.setFocus(m.panes.focus + 1) {
			m.rebuild()
		}
	case key.Matches(msg, m.env.Keys.PrevAccount):
		if m.panes.setFocus(m.panes.focus - 1) {
			m.rebuild()
		}
	case key.Matches(msg, m.env.Keys.AllAccounts):
		m.panes.focus = -1
		m.rebuild()
	case key.Matches(msg, m.env.Keys.Refresh):
		return m.refresh(m.panes.current(m.list.selected()))
	case key.Matches(msg, m.env.Keys.RefreshAll):
		var cmds []tea.Cmd
		for i := range m.panes.accts {
			cmds = append(cmds, m.refresh(i))
		}
		m.frame.setStatus("refreshing all accounts", false)
		return tea.Batch(cmds...)
	case key.Matches(msg, m.env.Keys.Details):
		if i := m.panes.current(m.list.selected()); i >= 0 {
			m.show(modeDetails, details.New(&m.env, i, m.panes.detailsOf(i), m.frame.notifyFailure))
		}
	case key.Matches(msg, m.env.Keys.Screener):
		return m.openScreener()
	case key.Matches(msg, m.env.Keys.Proposals):
		return m.openProposals()
	case key.Matches(msg, m.env.Keys.Select):
		if r, ok := m.list.selected(); ok {
			m.triage.toggle(r.ID)
			m.list = m.list.Step(1)
		}
	case key.Matches(msg, m.env.Keys.ClearSelection):
		m.triage.clear()
	case key.Matches(msg, m.env.Keys.Filter):
		var cmd tea.Cmd
		m.filter, cmd = m.filter.Open(false)
		return cmd
	case key.Matches(msg, m.env.Keys.Search):
		var cmd tea.Cmd
		m.filter, cmd = m.filter.Open(true)
		return cmd
	}
	return nil
}

// handleActionKey runs the triage keys, in the list and in a message
// (inMessage: on the message shown, and archive and trash leave it).
func (m *Model) handleActionKey(msg tea.KeyMsg, inMessage bool) tea.Cmd {
	if !key.Matches(msg, m.env.Keys.ToggleRead, m.env.Keys.ToggleFlag, m.env.Keys.Archive, m.env.Keys.Trash, m.env.Keys.Move, m.env.Keys.Undo, m.env.Keys.Snooze) {
		return nil // not an action: no need to look at the rows
	}
	cursor, onRow := m.list.selected()
	rows := m.triage.targets(m.inbox, cursor, onRow)
	conversation := !inMessage && len(m.triage.selected) == 0 && onRow && cursor.Thread != nil && !cursor.Member
	if conversation {
		if key.Matches(msg, m.env.Keys.ToggleFlag) {
			rows = []model.Row{cursor} // f flags the newest message, the row's own
		} else if !key.Matches(msg, m.env.Keys.Undo) && !m.threads.Confirmed(msg, cursor.Thread) {
			return func() tea.Msg { return nil } // asked first: a conversation in several accounts
		}
	}
	var next *model.Row // the message after the one shown, in list order
	if inMessage {
		if r, ok := m.inbox.Find(m.viewer.Showing()); ok {
			rows = []model.Row{r}
		} else {
			rows = nil
		}
		next = m.list.after(m.viewer.Showing())
	}
	switch {
	case key.Matches(msg, m.env.Keys.ToggleRead):
		// Absolute on the server: read if any is unread, else unread.
		return m.act(model.Op{Action: model.ActSetSeen, Value: anyUnread(rows)}, rows)
	case key.Matches(msg, m.env.Keys.ToggleFlag):
		return m.act(model.Op{Action: model.ActSetFlagged, Value: !allFlagged(rows)}, rows)
	case key.Matches(msg, m.env.Keys.Archive):
		return m.leaveIf(inMessage, next, m.act(model.Op{Action: model.ActArchive}, rows))
	case key.Matches(msg, m.env.Keys.Trash):
		return m.leaveIf(inMessage, next, m.act(model.Op{Action: model.ActTrash}, rows))
	case key.Matches(msg, m.env.Keys.Move):
		return m.startMove(rows)
	case key.Matches(msg, m.env.Keys.Snooze):
		return m.startSnooze(rows)
	case key.Matches(msg, m.env.Keys.Undo):
		return m.undo()
	}
	return nil
}

// leaveIf leaves the message view after the message shown went away
// (cmd: it did): back to the list, or with [ui] after_action = "next" on
// to next, the message after it in list order, opened as enter opens it
// (the list's cursor on it, marked read if mark_read_on_open says so).
func (m *Model) leaveIf(inMessage bool, next *model.Row, cmd tea.Cmd) tea.Cmd {
	if cmd == nil || !inMessage {
		return cmd
	}
	if m.env.Opts.AfterAction == "next" && next != nil {
		if r, ok := m.inbox.Find(next.ID); ok {
			m.list = m.list.follow(r.ID)
			m.rebuild()
			return tea.Batch(cmd, m.openRow(r))
		}
	}
	m.setMode(modeList)
	return cmd
}

func anyUnread(rows []model.Row) bool {
	for _, r := range rows {
		if !r.Seen {
			return true
		}
	}
	return false
}

func allFlagged(rows []model.Row) bool {
	for _, r := range rows {
		if !r.Flagged {
			return false
		}
	}
	return len(rows) > 0
}

// startMove opens the folder picker over the involved accounts' folders.
func (m *Model) startMove(rows []model.Row) tea.Cmd {
	if len(rows) == 0 {
		return nil
	}
	p, cmd := picker.StartMove(&m.env, rows, m.panes.accountsOf(rows))
	m.show(modePicker, p)
	return cmd
}

// handleFilterKey routes a key to the filter and shows the rows it keeps:
// a search runs when its input ends with text (cleared, it has none), and
// a filter that changed reaches into the store.
func (m *Model) handleFilterKey(msg tea.KeyMsg) tea.Cmd {
	before, search := m.filter.text(), m.filter.search
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	m.rebuild()
	text := m.filter.text()
	switch {
	case !m.filter.active && search && text == "": // esc, or nothing to search
		m.dropSearch()
		return nil
	case !m.filter.active && search:
		return m.startSearch(text)
	case m.filter.active && text != before && text != "" && !search && m.folder.On:
		return tea.Batch(cmd, m.folder.MatchStored(&m.env, text))
	case m.filter.active && text != before && text != "" && !search:
		return tea.Batch(cmd, m.panes.MatchStored(&m.env, text))
	}
	return cmd
}

// dropSearch forgets the server search (late answers are dropped), takes
// its hits out of the inbox (an Archive row must not stay in it) and its
// line off the status line, if it is still there: esc cleared its text,
// and a line about it would outlive it.
func (m *Model) dropSearch() {
	if m.search.said != "" && m.frame.status == m.search.said {
		m.frame.setStatus("", false)
	}
	m.search = searchBox{}
	if m.home().DropFound() {
		m.rebuild()
	}
}

func (m *Model) searched(msg searchedMsg) {
	name := m.panes.accts[msg.account].acct.Name()
	m.search = m.search.searched(msg, name, func(found []model.Message) int {
		var msgs []model.Message
		for _, x := range found {
			// The server matched the words; the rest of the query (its
			// fields, flags, dates) is checked on the envelope.
			if q := m.filter.query; q != nil && !query.Match(q, query.ServerDoc(query.Envelope(x), m.search.words)) {
				continue
			}
			msgs = append(msgs, x)
			if m.filter.hits != nil {
				m.filter.hits[x.ID] = true
			}
		}
		n := m.home().AddFound(name, msgs)
		m.homeTriage().reapply()
		return n
	})
	m.rebuild()
	if m.search.finished() {
		m.frame.setStatus(m.search.outcome(len(m.list.rows)))
		m.search = searchBox{said: m.frame.status}
	}
}

func (m *Model) open() tea.Cmd {
	r, ok := m.list.selected()
	if !ok {
		return nil
	}
	return m.openRow(r)
}

// openRow shows r's message in the message view.
func (m *Model) openRow(r model.Row) tea.Cmd {
	i := m.panes.index(r.ID.Account)
	if i < 0 {
		return nil
	}
	var cmd tea.Cmd
	m.viewer, cmd = m.viewer.Open(&m.env, m.panes.accts[i].acct, r.ID)
	m.setMode(modeMessage)
	if !r.Seen && m.env.Opts.MarkReadOnOpen {
		// get_message never sets \Seen: marking read is its own intent.
		return tea.Batch(cmd, m.act(model.Op{Action: model.ActSetSeen, Value: true}, []model.Row{r}))
	}
	return cmd
}

func (m *Model) refresh(i int) tea.Cmd {
	if i < 0 || i >= len(m.panes.accts) {
		return nil
	}
	m.frame.setStatus("refreshing "+m.panes.accts[i].acct.Name()+"…", false)
	return refreshCmd(m.env.Ctx, m.panes.accts[i].acct, i, m.env.Opts.CallTimeout)
}

// handleConnEvent applies a status snapshot: badge, stale rows, and a
// reload when an account comes back.
func (m *Model) handleConnEvent(msg statusMsg) tea.Cmd {
	if msg.closed {
		return nil
	}
	a := m.panes.accts[msg.account]
	var back bool
	*a, back = a.healthChanged(msg.health)
	// Rows are stale while the account is known degraded, whether they
	// came before this event or come after it (a page and a status event
	// race to the UI): the mark never depends on their order.
	m.setStale(a.acct.Name(), msg.health.Degraded())
	m.frame.clearRecovered(a.acct.Name(), msg.health)
	var cmds []tea.Cmd
	if back {
		cmds = append(cmds, m.panes.Load(&m.env, msg.account)) // fetch what was missed
		if m.folder.On && m.folder.Account == msg.account {
			cmds = append(cmds, m.folder.Load(&m.env)) // and in the folder on screen
		}
		if room := m.env.Opts.Mailroom; room != nil && room.Runner != nil {
			room.Runner.Connected(a.acct.Name()) // and send what waited for it
		}
	}
	m.toTop(details.ChangedMsg{Account: msg.account}) // the details read their account again
	m.rebuild()
	return tea.Batch(append(cmds, waitStatus(m.env.Ctx, msg.account, m.panes.subs[msg.account]))...)
}

// handleAccountMsg applies a result of an account operation: the one
// dispatch of every accountMsg.
func (m *Model) handleAccountMsg(msg accountMsg) tea.Cmd {
	if cmd, ok := m.folderMsg(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case statusMsg:
		return m.handleConnEvent(msg)
	case restoredMsg:
		return tea.Batch(m.restored(msg), m.panes.recount(&m.env))
	case connectMsg:
		return m.panes.connect(&m.env)
	case firstScreenMsg:
		if m.panes.screenDone {
			return nil
		}
		return m.panes.resume(&m.env)
	case resumeMsg:
		return m.panes.resume(&m.env)
	case compose.ComposeReadyMsg, compose.ReopenedMsg, compose.EditedMsg, compose.UnmodifiedMsg, compose.ReviewMsg, compose.MarksMsg, compose.QueuedMsg, compose.CancelledMsg,
		compose.AttachedMsg, compose.CompletedMsg, compose.RecipientsSetMsg:
		return m.composed(msg)
	case compose.SentNowMsg:
		return m.toTop(msg)
	case compose.ShelvedMsg:
		return tea.Batch(m.composed(msg), m.toTop(msg)) // the drafts view reads Drafts again
	case threads.StoredMsg:
		m.threads.Stored(msg)
		return m.heard()
	case compose.ServerDraftsMsg:
		return m.toTop(msg)
	case compose.DecidedMsg:
		if msg.Err != nil {
			m.frame.setStatus(msg.Verb+": "+msg.Err.Error(), true)
		} else {
			m.frame.setStatus(msg.Verb, false)
		}
		return compose.ReadOutboxCmd(m.env.Opts.Mailroom)
	case compose.OutboxMsg:
		cmd := tea.Batch(m.toTop(msg), m.composed(msg), m.unsub.OutboxChanged())
		if msg.Watch {
			cmd = tea.Batch(cmd, compose.WaitOutboxCmd(m.env.Ctx, m.env.Opts.Mailroom))
		}
		if msg.Stamp != "" {
			cmd = tea.Batch(cmd, compose.WatchDraftsCmd(m.env.Ctx, m.env.Opts.Mailroom, msg.Stamp))
		}
		return cmd
	case notify.FlushMsg, notify.RanMsg:
		var cmd tea.Cmd
		m.notify, cmd = m.notify.Update(msg)
		return tea.Batch(cmd, m.heard())
	case pushedMsg:
		return m.panes.pushed(&m.env, msg)
	case earlyPageMsg:
		return tea.Batch(m.earlyPage(msg), msg.rest)
	case syncedMsg:
		return tea.Batch(m.synced(msg), m.panes.reloadSnoozeMarks(&m.env, msg.account), m.panes.recount(&m.env, msg.account), m.countProposals())
	case countedMsg:
		m.panes.counted(msg)
		m.rebuild()
	case storedMatchMsg:
		m.storedMatched(msg)
	case listedMsg:
		return tea.Batch(m.listed(msg), m.panes.reloadSnoozeMarks(&m.env, msg.account), m.panes.recount(&m.env, msg.account))
	case snoozeMarksMsg:
		return m.panes.snoozeMarksArrived(&m.env, msg) // drawn with the next view
	case snoozeDueMsg:
		return m.panes.snoozeDue(&m.env, msg)
	case message.OpenedMsg, message.EventsMsg:
		var cmd tea.Cmd
		m.viewer, cmd = m.viewer.Update(msg) // an invitation's: its stored versions are read next
		return cmd
	case refreshedMsg:
		a := m.panes.accts[msg.account]
		var line string
		var failed bool
		*a, line, failed = a.refreshed(msg.err)
		if failed {
			m.frame.setAccountError(a.acct.Name(), line)
			return nil
		}
		m.frame.setStatus(line, false)
		return m.panes.Load(&m.env, msg.account)
	case appliedMsg:
		return m.applied(msg)
	case unsub.InfoMsg:
		m.unsub.Info(msg, m.row().unsubBox)
		return m.heard()
	case unsub.DoneMsg:
		return tea.Batch(m.unsub.Done(msg), m.heard())
	case unsub.StoredMsg:
		for i, msgs := range msg.Found {
			m.inbox.AddStored(m.panes.accts[i].acct.Name(), msgs)
		}
		m.triage.reapply()
		m.rebuild()
		m.unsub.Offer(msg, m.inbox.Rows(), m.row().unsubBox)
		return m.heard()
	case unsub.QueuedMsg:
		return tea.Batch(m.unsub.MailtoQueued(msg), m.heard())
	case unsub.FollowMsg:
		return tea.Batch(m.unsub.MailtoFollowed(msg), m.heard())
	case picker.FoldersMsg:
		return m.toTop(msg)
	case searchedMsg:
		m.searched(msg)
	case autoRefreshMsg:
		cmd := m.panes.loadAll(&m.env, func(a *accountPane) bool { return !a.loading && !a.health.Down() })
		return tea.Batch(cmd, m.folder.Refresh(&m.env, m.folder.On && m.panes.accts[m.folder.Account].health.Down()), autoRefresh(m.env.Opts.RefreshInterval))
	}
	return nil
}

// rebuild refreshes the list's rows from the inbox, for the focus.
func (m *Model) rebuild() {
	rows := m.inbox.Rows()
	if m.panes.focus >= 0 && m.panes.focus < len(m.panes.accts) {
		name := m.panes.accts[m.panes.focus].acct.Name()
		filtered := make([]model.Row, 0, len(rows))
		for _, r := range rows {
			if r.ID.Account == name {
				filtered = append(filtered, r)
			}
		}
		rows = filtered
	}
	rows = m.filter.apply(rows)
	if m.threads.On {
		rows = model.ThreadRows(rows, m.threads.Expanded, m.threads.More)
	}
	m.list = m.list.setRows(rows)
	for _, a := range m.panes.accts {
		m.panes.unread[a.acct.Name()] = m.panes.unreadOf(a, m.home())
	}
}

// setStatus puts one line on the status line; isErr draws it red.
func (f *frame) setStatus(s string, isErr bool) {
	f.status, f.statusErr, f.statusFrom = textsafe.Line(s), isErr, ""
}

// setAccountError shows an account's failure until something else
// replaces it or the account is connected again (see clearRecovered);
// `i` keeps it in the account's details either way.
func (f *frame) setAccountError(account, s string) {
	f.setStatus(s, true)
	f.statusFrom = account
}

// clearRecovered takes an account's failure off the status line once its
// badge says connected: the two would contradict each other.
func (f *frame) clearRecovered(account string, h accounts.Health) {
	if f.statusFrom == account && h.Connected() {
		f.setStatus("", false)
	}
}
