package message

import (
	"strings"

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
	in := v.invite
	if in == nil {
		return nil
	}
	if in.err != "" {
		return screen.Hanging(v.styles.StatusError.Render, "! "+textsafe.Line(in.err), w)
	}
	c := in.card
	out := []string{v.styles.Title.Render(textsafe.Fit(textsafe.Line(c.Title+": "+c.Summary), w))}
	for _, warn := range c.Warnings {
		out = append(out, screen.Hanging(v.styles.StatusError.Render, "! "+textsafe.Line(warn), w)...)
	}
	fields := c.Fields
	if len(c.Changes) > 0 {
		fields = append([]invite.Field{{Label: "Changed", Value: strings.Join(c.Changes, "; ")}}, fields...)
	}
	room := max(w-labelWidth-1, 1)
	for _, f := range fields {
		for i, l := range strings.Split(screen.Wrap(textsafe.Line(f.Value), room), "\n") {
			label := strings.Repeat(" ", labelWidth+1)
			if i == 0 {
				label = v.styles.Label.Render(padRight(f.Label+":", labelWidth+1))
			}
			out = append(out, label+textsafe.Fit(l, room))
		}
	}
	return out
}

// padRight pads s with spaces to w columns.
func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(w-textsafe.Width(s), 0))
}
