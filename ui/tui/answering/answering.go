// Package answering is the answer screen of an invitation (issue 41): I
// in the message view opens it over the invitation on screen. It shows
// the event and where the answer goes (the organizer, marked when that is
// not the sender), and takes a (accept), t (maybe) or d (decline); the
// answer is then a draft like a reply: the editor takes an optional
// comment (left empty: none), the review shows the answer as it will go,
// and the outbox sends it. When none of the account's addresses is
// invited, the screen asks which of them answers.
package answering

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/invite"
	"unibox/model/textsafe"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/screen"
)

// View is the answer screen.
type View struct {
	e      *screen.Env
	keys   screen.KeyMap
	styles screen.Styles
	acct   screen.Account
	body   model.Body // the invitation's message
	inv    invite.Invite
	card   invite.Card
	loc    *time.Location
	// as are the addresses the person may answer as when none of the
	// account's is invited (the account's From and aliases); cursor picks
	// one. Empty when the invitation names one of them (card.Me).
	as     []string
	cursor int
}

// BackMsg: the screen ended (esc, or an answer chosen): the message view
// comes back, under the editor when an answer was chosen.
type BackMsg struct{}

func (BackMsg) AccountIndex() int { return screen.NoAccount }

// New opens the answer screen on the invitation inv (described as card)
// of the message b in acct, whose own addresses are own.
func New(e *screen.Env, acct screen.Account, b model.Body, inv invite.Invite, card invite.Card, own []string, loc *time.Location) View {
	v := View{e: e, keys: e.Keys, styles: e.Styles, acct: acct, body: b, inv: inv, card: card, loc: loc}
	if card.Me == nil {
		v.as = own
	}
	return v
}

// Update takes the answer keys; every other message is not its own.
func (v View) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return v, nil
	}
	var r invite.Response
	switch {
	case key.Matches(k, v.keys.Back, v.keys.Invitation):
		return screen.Tell(nil, BackMsg{}), nil
	case key.Matches(k, v.keys.Down):
		v.cursor = min(v.cursor+1, max(len(v.as)-1, 0))
		return v, nil
	case key.Matches(k, v.keys.Up):
		v.cursor = max(v.cursor-1, 0)
		return v, nil
	case key.Matches(k, v.keys.RSVPAccept):
		r = invite.Accepted
	case key.Matches(k, v.keys.RSVPTentative):
		r = invite.Tentative
	case key.Matches(k, v.keys.RSVPDecline):
		r = invite.Declined
	default:
		return v, nil
	}
	attendee := v.answeringAs()
	if attendee == "" {
		return screen.Tell(v, screen.NoteMsg{Bad: true, Text: "this account has no address to answer as: set from in its [[account]]"}), nil
	}
	spec, err := invite.NewReply(v.inv, attendee, r, v.loc)
	if err != nil {
		return screen.Tell(v, screen.NoteMsg{Bad: true, Text: "cannot answer: " + err.Error()}), nil
	}
	spec = spec.WithEvent([]byte(v.body.Calendar))
	return screen.Tell(nil, BackMsg{}, screen.NoteMsg{Text: "answering…"}),
		compose.StartRSVPCmd(v.e.Opts.Mailroom, v.acct, v.body, spec)
}

// answeringAs is the address the answer is from: the invited one, else
// the one picked.
func (v View) answeringAs() string {
	if v.card.Me != nil {
		return v.card.Me.Email
	}
	if v.cursor < len(v.as) {
		return strings.TrimSpace(v.as[v.cursor])
	}
	return ""
}

// View draws the card, then where the answer goes and as whom, then the
// keys.
func (v View) View(width, height int) string {
	lines := screen.CardLines(v.styles, v.card, width)
	fit := func(s string) string { return textsafe.Fit(s, width) }
	lines = append(lines, "")
	org := v.inv.Events[0].Organizer
	lines = append(lines, fit("The answer goes to the organizer, "+textsafe.Line(org.String())+"."))
	if sender := v.body.From.Address; !strings.EqualFold(sender, org.Email) {
		lines = append(lines, screen.Hanging(v.styles.StatusError.Render,
			fmt.Sprintf("! the answer goes to ORGANIZER %s, not the sender %s", textsafe.Line(org.Email), textsafe.Line(sender)), width)...)
	}
	if len(v.as) > 0 {
		lines = append(lines, v.styles.StatusError.Render(fit("Not addressed to you: answer as which address? ("+screen.LastHint(v.keys.Up)+"/"+screen.LastHint(v.keys.Down)+" picks)")))
		for i, a := range v.as {
			mark := "  "
			if i == v.cursor {
				mark = "> "
			}
			st := v.styles.Row
			if i == v.cursor {
				st = v.styles.RowSelected
			}
			lines = append(lines, st.Render(fit(mark+textsafe.Line(a))))
		}
	} else {
		lines = append(lines, fit("You answer as "+textsafe.Line(v.answeringAs())+"; your answer so far: "+invite.Answer(v.card.Me.PartStat)+"."))
	}
	k := v.keys
	lines = append(lines, "")
	lines = append(lines, screen.Hanging(v.styles.Dim.Render, fmt.Sprintf("%s accept · %s maybe · %s decline: then the editor takes a comment (leave it empty for none), and the review shows the answer before it goes.",
		screen.Hint(k.RSVPAccept), screen.Hint(k.RSVPTentative), screen.Hint(k.RSVPDecline)), width)...)
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// Header names the screen and its keys.
func (v View) Header() string {
	k := v.keys
	return fmt.Sprintf("answer the invitation · %s accept · %s maybe · %s decline · %s back",
		screen.Hint(k.RSVPAccept), screen.Hint(k.RSVPTentative), screen.Hint(k.RSVPDecline), screen.Hint(k.Back))
}

// ShortHelp and FullHelp are the screen's keys.
func (v View) ShortHelp() []key.Binding {
	k := v.keys
	return []key.Binding{k.RSVPAccept, k.RSVPTentative, k.RSVPDecline, k.Back, k.Help}
}
func (v View) FullHelp() [][]key.Binding {
	k := v.keys
	return [][]key.Binding{v.ShortHelp(), {k.Down, k.Up}}
}
