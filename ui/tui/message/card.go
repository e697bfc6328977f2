package message

import (
	"unibox/model"
	"unibox/model/invite"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// The invitation card (issue 41): a message with a calendar part shows
// the event above its body, in words, in the UI clock's zone, with what
// model/invite warns of (not addressed to you, not from the organizer)
// first and the body after it.

// invitation is what the viewer read of the message's calendar part.
type invitation struct {
	inv  invite.Invite
	card invite.Card
	err  string // the part could not be read: said instead of a card
}

// readInvitation parses b's calendar part for the reader with the
// account's addresses; nil when b has none.
func (v Viewer) readInvitation(b model.Body) *invitation {
	if b.Calendar == "" {
		return nil
	}
	inv, err := invite.Parse([]byte(b.Calendar), v.loc)
	if err != nil {
		return &invitation{err: "the calendar part could not be read: " + err.Error()}
	}
	return &invitation{inv: inv, card: invite.Describe(inv, invite.Reader{Addresses: v.own, Zone: v.loc, Sender: b.From.Address})}
}

// cardLines draws the card w columns wide, nil without one.
func (v Viewer) cardLines(w int) []string {
	switch in := v.invite; {
	case in == nil:
		return nil
	case in.err != "":
		return screen.Hanging(v.styles.StatusError.Render, "! "+textsafe.Line(in.err), w)
	default:
		return screen.CardLines(v.styles, in.card, w)
	}
}

// Invitation is the invitation of the message on screen, read, with the
// body it came in; ok is false while it loads and for mail without one
// (or with one that could not be read).
func (v Viewer) Invitation() (inv invite.Invite, card invite.Card, b model.Body, ok bool) {
	b, loaded := v.Answerable()
	if !loaded || v.invite == nil || v.invite.err != "" {
		return invite.Invite{}, invite.Card{}, model.Body{}, false
	}
	return v.invite.inv, v.invite.card, b, true
}

// Own are the addresses of the account of the message on screen.
func (v Viewer) Own() []string { return v.own }
