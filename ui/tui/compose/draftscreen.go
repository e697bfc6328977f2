package compose

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/outbox"
	"unibox/ui/tui/screen"
)

// Update takes the outbox and the servers' Drafts as they are read, and
// the keys: the cursor, and on the item under it open a draft on the
// review screen, send a failed or unknown message again, forget one, or
// discard a draft (asked twice). Back ends it; what the status line
// should say it tells as a note.
func (b DraftsBox) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case OutboxMsg:
		b.local = msg
		return b.filled(), nil
	case ServerDraftsMsg:
		if msg.account < 0 || msg.account >= len(b.accts) {
			return b, nil
		}
		return b.serverDrafts(b.accts[msg.account].Name(), msg), nil
	case ShelvedMsg:
		return b, b.ReadServer() // a discarded copy in Drafts is gone from the list
	case tea.KeyMsg:
		return b.key(msg)
	}
	return b, nil
}

// key is a key on the drafts view.
func (b DraftsBox) key(msg tea.KeyMsg) (screen.Screen, tea.Cmd) {
	k, e := b.keys, b.e
	room := e.Opts.Mailroom
	if key.Matches(msg, k.Back, k.Quit, k.Drafts) {
		return nil, nil
	}
	it, ok := b.selected()
	switch {
	case key.Matches(msg, k.Down):
		b.cursor = min(b.cursor+1, max(len(b.items)-1, 0))
	case key.Matches(msg, k.Up):
		b.cursor = max(b.cursor-1, 0)
	}
	if !key.Matches(msg, k.Discard) {
		b.confirm = false
	}
	if !ok {
		return b, nil
	}
	switch {
	case key.Matches(msg, k.Open) && it.remote != nil:
		a := b.account(it.remote.ID.Account)
		if a == nil {
			return b, nil
		}
		return screen.Tell(b, screen.NoteMsg{Text: "opening the draft…"}), openServerDraftCmd(e.Ctx, room, a, *it.remote, e.Opts.CallTimeout)
	case key.Matches(msg, k.Open) && it.draft != nil && it.draft.Err == nil:
		a := b.account(it.draft.Account)
		if a == nil {
			return screen.Tell(b, screen.NoteMsg{Text: "its account " + it.draft.Account + " is not configured: the draft stays on disk", Bad: true}), nil
		}
		return b, reopenCmd(e.Ctx, room, a, it.draft.Draft, e.Opts.CallTimeout)
	case key.Matches(msg, k.Open) && it.entry != nil && it.entry.State == outbox.StateFailed && b.accounts[it.entry.Account]:
		// Refused (a 550): back to its draft to mend, the reason shown.
		return screen.Tell(b, screen.NoteMsg{Text: "opening the draft…"}), reopenFailedCmd(e.Ctx, room, b.account(it.entry.Account), it.entry.ID, e.Opts.CallTimeout)
	case key.Matches(msg, k.Send) && it.entry != nil && !b.accounts[it.entry.Account]:
		return screen.Tell(b, screen.NoteMsg{Text: "orphaned: " + it.entry.Account + " is not configured, and no other account sends it", Bad: true}), nil
	case key.Matches(msg, k.Send) && it.entry != nil && (it.entry.State == outbox.StateUnknown || it.entry.State == outbox.StateFailed):
		return b, sendAgainCmd(room, it.entry.ID, e.Opts.Now())
	case key.Matches(msg, k.Discard) && it.entry != nil && it.entry.State == outbox.StateQueued:
		return b, takeBackCmd(room, it.entry.ID) // not gone yet: back to its draft, as undo does
	case key.Matches(msg, k.Discard) && it.entry != nil:
		return b, forgetCmd(room, it.entry.ID)
	case key.Matches(msg, k.Discard) && (it.draft != nil || it.remote != nil):
		if !b.confirm {
			b.confirm = true
			return b, nil
		}
		b.confirm = false
		if it.remote != nil {
			if a := b.account(it.remote.ID.Account); a != nil {
				return b, discardServerDraftCmd(e.Ctx, a, *it.remote, e.Opts.CallTimeout)
			}
			return b, nil
		}
		return b, discardCmd(e.Ctx, room, b.account(it.draft.Account), it.draft.Draft, e.Opts.CallTimeout)
	}
	return b, nil
}

// account is the configured account of that name, or nil.
func (b DraftsBox) account(name string) screen.Account {
	for _, a := range b.accts {
		if a.Name() == name {
			return a
		}
	}
	return nil
}

// ReadServer lists every account's Drafts folder for the view, again
// after a draft there was discarded.
func (b DraftsBox) ReadServer() tea.Cmd {
	var cmds []tea.Cmd
	for i, a := range b.accts {
		cmds = append(cmds, serverDraftsCmd(b.e.Ctx, b.e.Opts.Mailroom, a, i, b.e.Opts.CallTimeout))
	}
	return tea.Batch(cmds...)
}
