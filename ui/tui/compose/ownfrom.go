package compose

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen"
)

// identityOf is acct's own addresses (from, aliases); ok false when it
// cannot send or has no from (it then sends nothing: the outbox and the
// account refuse it too).
func identityOf(acct screen.Account) (mailcompose.Identity, bool) {
	c, ok := screen.ComposerOf(acct)
	if !ok {
		return mailcompose.Identity{}, false
	}
	from, aliases := c.Identity()
	if from == nil || from.Address == "" {
		return mailcompose.Identity{}, false
	}
	return mailcompose.Identity{From: model.Address{Name: from.Name, Address: from.Address}, Aliases: aliases}, true
}

// foreignFrom is why d cannot go from acct: its From is none of the
// account's addresses (a draft found in Drafts says what its writer
// wanted; an editor can write anything there). "" when it can.
func (c Composer) foreignFrom(d mailcompose.Draft) string {
	self, ok := identityOf(c.acct)
	if !ok || self.Owns(d.From.Address) {
		return ""
	}
	return fmt.Sprintf("From %s is not one of this account's addresses (from, aliases) · %s puts %s",
		orNone(d.From.Address), screen.Hint(c.keys.OwnFrom), self.From.Address)
}

// ownFromCmd puts the account's from on the draft's From line (the rest
// of its text as it is) and reviews it again: what the person asked for
// with the OwnFrom key, on a draft whose From is not the account's.
func ownFromCmd(room *screen.Mailroom, acct screen.Account, id string, base, shown mailcompose.Draft) tea.Cmd {
	return func() tea.Msg {
		self, ok := identityOf(acct)
		if !ok {
			return ReviewMsg{DraftID: id, draft: shown, err: ErrCannotSend}
		}
		dr, _, err := room.Box.Draft(id)
		if err != nil {
			return ReviewMsg{DraftID: id, draft: shown, err: fmt.Errorf("the draft cannot be read: %w", err)}
		}
		shown.From = self.From
		if err := room.Box.SaveDraft(dr, []byte(shown.Editable())); err != nil {
			return ReviewMsg{DraftID: id, draft: shown, err: fmt.Errorf("From was not changed: %w", err)}
		}
		return readDraftCmd(room, id, base)()
	}
}
