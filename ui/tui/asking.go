package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/recipients"
	"unibox/ui/tui/screen"
)

// The recipient prompts on the status line (ui/tui/recipients): c and F
// ask To: before anything is written, so esc there leaves no draft; the
// review's edit_recipients asks To: then Cc: over its draft. While a
// prompt is up it has every key, and the contacts it lists go under it,
// the body giving up the lines they take.

// askPurpose is what a prompt's answer goes to.
type askPurpose int

const (
	askNone    askPurpose = iota
	askCompose            // c or F: the draft is started with the To read
	askReview             // the review's t: To, then Cc, then the draft
)

func (a askPurpose) String() string {
	switch a {
	case askNone:
		return "none"
	case askCompose:
		return "compose"
	case askReview:
		return "review"
	}
	return "unknown"
}

// askBox is the prompt up (nil: none) and what its answer is for.
type askBox struct {
	prompt  *recipients.Prompt
	purpose askPurpose
	// The message c or F starts once To is read.
	acct screen.Account
	kind mailcompose.Kind
	body *model.Body
	// The review's draft, its To as read (while Cc is asked) and the Cc
	// it had.
	draftID string
	to, cc  []model.Address
}

// askTo asks To: for a message c or F starts; nothing is written yet.
func (m *Model) askTo(acct screen.Account, kind mailcompose.Kind, body *model.Body) tea.Cmd {
	m.ask = askBox{purpose: askCompose, acct: acct, kind: kind, body: body}
	return m.openPrompt(recipients.Ask{Field: "To"})
}

// askRecipients asks the review's draft's To: (then Cc:), prefilled.
func (m *Model) askRecipients(msg compose.AskRecipientsMsg) tea.Cmd {
	m.ask = askBox{purpose: askReview, draftID: msg.DraftID, cc: msg.Cc}
	return m.openPrompt(recipients.Ask{Field: "To", Value: mailcompose.FormatRecipients(msg.To)})
}

// openPrompt puts the prompt on the status line; a full help open
// closes, so the list has the lines under it.
func (m *Model) openPrompt(ask recipients.Ask) tea.Cmd {
	p := recipients.New(&m.env, ask)
	m.ask.prompt = &p
	m.frame.help.ShowAll, m.frame.helpPage = false, 0
	m.layout()
	return nil
}

// asking hands the prompt a key or a lookup's answer, and routes what it
// told (its answer, or esc).
func (m *Model) asking(msg tea.Msg) tea.Cmd {
	if m.ask.prompt == nil {
		return nil // a lookup's answer for a prompt gone
	}
	p, cmd := m.ask.prompt.Update(msg)
	m.ask.prompt = &p
	m.layout()
	return tea.Batch(cmd, m.heard())
}

// asked takes how a prompt ended: To read for c or F starts the draft
// with it; the review's To read asks Cc, its Cc read rewrites the draft;
// esc on any of them changes nothing and writes nothing.
func (m *Model) asked(msg tea.Msg) tea.Cmd {
	a := m.ask
	m.ask = askBox{}
	defer m.layout()
	switch msg := msg.(type) {
	case recipients.CancelledMsg:
		if a.purpose == askCompose {
			m.frame.setStatus("cancelled: nothing was written", false)
		} else {
			m.frame.setStatus("the recipients are as they were", false)
		}
		return nil
	case recipients.AnsweredMsg:
		switch {
		case a.purpose == askCompose:
			room := m.env.Opts.Mailroom
			m.frame.setStatus("writing…", false)
			return compose.StartComposeCmd(m.env.Ctx, room, a.acct, a.kind, a.body, msg.Addresses, m.env.Opts.CallTimeout)
		case a.purpose == askReview && msg.Field == "To":
			m.ask = askBox{purpose: askReview, draftID: a.draftID, to: msg.Addresses}
			return m.openPrompt(recipients.Ask{Field: "Cc", Value: mailcompose.FormatRecipients(a.cc)})
		case a.purpose == askReview:
			return m.composed(compose.RecipientsMsg{DraftID: a.draftID, To: a.to, Cc: msg.Addresses})
		}
	}
	return nil
}

// under is what the prompt draws under the status line, in at most the
// lines the frame can spare (one body line stays): "" with no prompt.
func (m *Model) under(helpLines int) string {
	if m.ask.prompt == nil {
		return ""
	}
	return m.ask.prompt.View(m.frame.width, m.frame.height-4-helpLines)
}
