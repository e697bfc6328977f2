package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/folder"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/screen"
)

// folderView is another folder of one account shown in the list, in place
// of the unified inbox (`o`, then a folder). The list, the triage keys,
// paging and the filter work on it unchanged: while it is on screen the
// root's inbox and triage are the folder's own, and the unified ones wait
// here, still kept up to date by every listing, push and action of the
// inbox (home). `o` then INBOX, or esc, puts them back.
//
// The folder is read from the store at once and synced as the inbox is
// (a step at a time, the first of a screen's rows); its account follows it
// for push (accounts.Account.Follow: one more IMAP connection at most,
// whichever folders are visited), while the inbox stays watched.
type folderView struct {
	folder.View
	home      *model.Inbox
	homeTri   triageBox
	homeFocus int
}

// The folder view's messages; each carries the visit it belongs to.
type (
	folderAppliedMsg struct {
		appliedMsg
		visit int
	}
)

// home is the unified inbox, wherever it is kept now.
func (m *Model) home() *model.Inbox {
	if m.folder.On {
		return m.folder.home
	}
	return m.inbox
}

// homeTriage is the unified inbox's triage.
func (m *Model) homeTriage() *triageBox {
	if m.folder.On {
		return &m.folder.homeTri
	}
	return &m.triage
}

// setStale marks an account's rows stale in the inbox and in the folder.
func (m *Model) setStale(name string, stale bool) {
	m.home().SetStale(name, stale)
	if m.folder.On && m.panes.accts[m.folder.Account].acct.Name() == name {
		m.inbox.SetStale(name, stale)
	}
}

// folderKey runs the folder keys in the list: o opens the picker, and in
// a folder esc (with no filter or selection to clear) goes back to the
// inbox, as does a key that shows other accounts. ok is false for any
// other key.
func (m *Model) folderKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Folders):
		i := m.panes.current(m.list.selected())
		if m.folder.On {
			i = m.folder.Account
		}
		if i < 0 {
			return nil, true
		}
		p, cmd := picker.NewFolders(&m.env, i, m.panes.accts[i].acct)
		m.show(modeFolders, p)
		return cmd, true
	case !m.folder.On:
		return nil, false
	case key.Matches(msg, k.Back) && m.filter.text() == "" && len(m.triage.selected) == 0,
		key.Matches(msg, k.NextAccount, k.PrevAccount, k.AllAccounts):
		cmd := m.leaveFolder()
		if key.Matches(msg, k.Back) {
			return cmd, true
		}
		return cmd, false // and the key does what it does in the inbox
	case key.Matches(msg, k.Search):
		m.frame.setStatus("search from the list covers every stored folder: in a folder, "+screen.Hint(k.Filter)+" filters its stored rows", false)
		return nil, true
	case key.Matches(msg, k.Refresh):
		m.frame.setStatus("refreshing "+m.folder.Name+"…", false)
		return m.folder.Load(&m.env), true
	}
	return nil, false
}

// enterFolder shows folder name of account i: its stored rows at once, then a
// sync, and its account follows it for push.
func (m *Model) enterFolder(i int, name string) tea.Cmd {
	if m.folder.On {
		m.restoreHome()
	}
	a := m.panes.accts[i].acct
	v := &m.folder
	if v.Armed == nil {
		v.Armed = map[int]bool{}
	}
	*v = folderView{View: folder.View{On: true, Account: i, Name: name, Visit: v.Visit + 1, Armed: v.Armed},
		home: m.inbox, homeTri: m.triage, homeFocus: m.panes.focus}
	m.inbox = model.NewInbox([]string{a.Name()})
	m.triage = triageBox{keys: m.env.Keys, t: model.NewTriage(m.inbox), selected: map[model.MessageID]bool{},
		groups: map[int]*groupState{}, intentGroup: map[int]int{}}
	m.panes.focus = i
	m.filter = m.filter.clear()
	m.list = m.list.setRows(nil)
	m.rebuild()
	m.frame.setStatus(fmt.Sprintf("%s of %s (%s: back to the inbox)", name, a.Name(), screen.Hint(m.env.Keys.Back)), false)
	cmds := []tea.Cmd{m.folder.Load(&m.env), folder.FollowCmd(m.env.Ctx, i, a, name, m.env.Opts.CallTimeout)}
	if r := screen.StoredOf(a); r != nil {
		cmds = append(cmds, folder.StoredCmd(m.env.Ctx, r, v.Visit, name, m.env.Opts.PageSize))
	}
	if f := screen.WatchingOf(a); f != nil && !v.Armed[i] {
		v.Armed[i] = true
		cmds = append(cmds, folder.WaitPush(m.env.Ctx, i, f.FolderPushes()))
	}
	return tea.Batch(cmds...)
}

// leaveFolder puts the unified inbox back; the account stops following
// the folder (its IMAP connection for it ends).
func (m *Model) leaveFolder() tea.Cmd {
	if !m.folder.On {
		return nil
	}
	i := m.folder.Account
	m.restoreHome()
	m.frame.setStatus("", false)
	m.rebuild()
	return folder.FollowCmd(m.env.Ctx, i, m.panes.accts[i].acct, "", m.env.Opts.CallTimeout)
}

func (m *Model) restoreHome() {
	v := &m.folder
	m.inbox, m.triage, m.panes.focus = v.home, v.homeTri, v.homeFocus
	m.filter = m.filter.clear()
	*v = folderView{View: folder.View{Visit: v.Visit, Armed: v.Armed}}
}

// folderHeader is the list's header for the folder on screen.
func (l listScreen) folderHeader() string {
	m := l.m
	v := m.folder
	a := m.panes.accts[v.Account]
	s := fmt.Sprintf("%s: %s · %s · %s: inbox", a.acct.Name(), v.Name, l.counted(), screen.Hint(m.env.Keys.Back))
	if v.Syncing != "" {
		s += " · " + v.Syncing
	}
	if !a.health.Connected() {
		s += " · " + a.health.Words(m.env.Opts.Now())
	}
	if q := m.filter.text(); q != "" {
		s += fmt.Sprintf(" · %s %q: %d shown", m.filter.words(), q, len(m.list.rows))
	}
	if n := len(m.triage.selected); n > 0 {
		s += fmt.Sprintf(" · %d selected", n)
	}
	return s
}

// folderMsg takes the folder view's messages; ok is false for any other.
func (m *Model) folderMsg(msg accountMsg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case picker.FolderListMsg:
		return m.toTop(msg), true
	case folder.PageMsg:
		return m.folderPage(msg), true
	case folder.PushedMsg:
		f := screen.WatchingOf(m.panes.accts[msg.Account].acct)
		cmd := folder.WaitPush(m.env.Ctx, msg.Account, f.FolderPushes())
		if m.folder.On && m.folder.Account == msg.Account {
			cmd = tea.Batch(cmd, m.folder.Load(&m.env))
		}
		return cmd, true
	case folder.FollowedMsg:
		// Down, the badge says so already: the folder follows once the
		// account is back (its next session subscribes it).
		if msg.Err != nil && m.panes.accts[msg.Account].health.Connected() {
			m.frame.setStatus("push: "+accounts.Reason(msg.Err), true)
		}
	case folderAppliedMsg:
		// An answer for an earlier visit is dropped: its intent numbers
		// are the earlier triage's, and the folder's rows are gone.
		if m.folder.On && msg.visit == m.folder.Visit {
			return m.report(nil, m.triage.applied(msg.appliedMsg, m.inbox)), true
		}
	case folder.MatchMsg:
		if m.folder.On && msg.Visit == m.folder.Visit && msg.Err == nil && msg.Text == m.filter.text() &&
			m.inbox.AddStored(m.panes.accts[m.folder.Account].acct.Name(), msg.Page.Messages) > 0 {
			m.triage.reapply()
			m.rebuild()
		}
	default:
		return nil, false
	}
	return nil, true
}

// folderPage applies a page of the folder.
func (m *Model) folderPage(msg folder.PageMsg) tea.Cmd {
	v := &m.folder
	if !v.On || msg.Visit != v.Visit {
		return nil
	}
	name := m.panes.accts[v.Account].acct.Name()
	switch {
	case msg.Older:
		v.Paging = max(v.Paging-1, 0)
		if msg.Err != nil {
			return nil
		}
		synced := screen.StoredOf(m.panes.accts[v.Account].acct) != nil
		switch {
		case msg.Stored && synced:
			// The sync keeps the store's copy of the folder: its page is
			// the folder's as the last step saw it, not a guess to confirm.
			m.inbox.AppendOlder(name, msg.Page.Messages, msg.Page.More, msg.Before)
		case msg.Stored:
			m.inbox.AppendStoredOlder(name, msg.Page.Messages, msg.Page.More)
		default:
			m.inbox.AppendOlder(name, msg.Page.Messages, msg.Page.More, msg.Before)
		}
	case msg.Stored: // the store's rows at opening: drawn until a step confirms them
		if msg.Err != nil || v.ListedOnce {
			return nil
		}
		m.inbox.Restore(name, msg.Page.Messages, msg.Page.More)
	default:
		return m.folderStepped(msg)
	}
	m.triage.reapply()
	m.rebuild()
	return nil
}

// folderStepped takes a sync step's (or a listing's) page, and takes the
// next step while a first sync still fills the store.
func (m *Model) folderStepped(msg folder.PageMsg) tea.Cmd {
	v := &m.folder
	if msg.Req != v.Req {
		return nil // superseded
	}
	v.Loading = false
	name := m.panes.accts[v.Account].acct.Name()
	if msg.Err != nil {
		v.Syncing = ""
		m.frame.setAccountError(name, name+": "+v.Name+": "+accounts.Reason(msg.Err))
		return nil
	}
	v.ListedOnce = true
	if fresh := m.inbox.Replace(name, msg.Page.Messages, msg.Page.More); fresh > 0 {
		m.frame.setStatus(fmt.Sprintf("%d new in %s: %s", fresh, name, v.Name), false)
	}
	m.triage.reapply()
	m.rebuild()
	v.Syncing = ""
	if msg.Synced && !msg.Done {
		v.Syncing = fmt.Sprintf("syncing %s/%s", thousands(msg.Progress.Stored), thousands(msg.Progress.Total))
		v.Again = true
	}
	if v.Again {
		v.Again = false
		return m.folder.Load(&m.env)
	}
	return nil
}

// tagFolder marks an action's answer as the folder's: the inbox's
// triage and the folder's number their intents each from one.
func tagFolder(cmd tea.Cmd, visit int) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		msg := cmd()
		if a, ok := msg.(appliedMsg); ok {
			return folderAppliedMsg{appliedMsg: a, visit: visit}
		}
		return msg
	}
}
