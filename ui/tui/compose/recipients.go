package compose

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen"
)

// The review's edit_recipients key (t, mutt's compose menu's): the root
// asks To: then Cc: on the status line (ui/tui/recipients), prefilled
// with the draft's, and hands back what they read (RecipientsMsg); the
// draft's To and Cc lines are rewritten in a command, the rest of its
// text byte for byte, and it is read back and checked again, so the
// marks (a new recipient, a look-alike domain) are the new recipients'.
// esc on either prompt changes nothing.

// AskRecipientsMsg: the review asks for draft DraftID's To and Cc,
// which it has now (told to the root).
type AskRecipientsMsg struct {
	DraftID string
	To, Cc  []model.Address
}

// RecipientsMsg is what the prompts read for draft DraftID (the root's
// answer to AskRecipientsMsg).
type RecipientsMsg struct {
	DraftID string
	To, Cc  []model.Address
}

// RecipientsSetMsg: the draft's To and Cc lines are rewritten, and
// review is the draft read back; Err: they were not, and it is as it was.
type RecipientsSetMsg struct {
	DraftID string
	review  ReviewMsg
	Err     error
}

func (m RecipientsSetMsg) AccountIndex() int { return screen.NoAccount }

// askRecipients is the key's step: the root's prompts come next.
func (c Composer) askRecipients() Composer {
	c.e.Tell(AskRecipientsMsg{DraftID: c.Draft.ID, To: c.Shown.To, Cc: c.Shown.Cc})
	return c
}

// setRecipients writes what the prompts read, while the review waits
// (its keys wait until the draft is read back).
func (c Composer) setRecipients(msg RecipientsMsg) (Composer, tea.Cmd) {
	if !c.Review || c.busy || msg.DraftID != c.Draft.ID {
		return c, nil
	}
	c.busy = true
	return c, recipientsCmd(c.e.Opts.Mailroom, c.Draft.ID, msg.To, msg.Cc, c.base)
}

// recipientsSet shows the draft with its new recipients, and checks it
// again; the person's edit goes into the account's history as an edit.
func (c Composer) recipientsSet(msg RecipientsSetMsg) (Composer, tea.Cmd) {
	if msg.DraftID != c.Draft.ID {
		return c, nil
	}
	c.busy = false
	if msg.Err != nil {
		c.say("the recipients were not changed: "+msg.Err.Error(), true)
		return c, nil
	}
	c, cmd := c.step(msg.review)
	return c, tea.Batch(cmd, noteDraftCmd(c.e.Opts.Mailroom, c.acct, c.Draft.ID, "edited", nil))
}

// recipientsCmd rewrites draft id's To and Cc lines (WithRecipients) and
// reads it back as the editor's end does.
func recipientsCmd(room *screen.Mailroom, id string, to, cc []model.Address, base mailcompose.Draft) tea.Cmd {
	return func() tea.Msg {
		dr, text, err := room.Box.Draft(id)
		if err != nil {
			return RecipientsSetMsg{DraftID: id, Err: fmt.Errorf("the draft cannot be read: %w", err)}
		}
		if err := room.Box.SaveDraft(dr, []byte(mailcompose.WithRecipients(string(text), to, cc))); err != nil {
			return RecipientsSetMsg{DraftID: id, Err: fmt.Errorf("the draft's text was not changed: %w", err)}
		}
		review, _ := readDraftCmd(room, id, base)().(ReviewMsg)
		return RecipientsSetMsg{DraftID: id, review: review}
	}
}
