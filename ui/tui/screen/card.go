package screen

import (
	"strings"

	"unibox/model/invite"
	"unibox/model/textsafe"
)

// cardLabel is the columns of a card's label: "Organizer: ", the longest
// that is common.
const cardLabel = 11

// CardLines draws an invitation's card (model/invite.Describe) w columns
// wide, as the message view shows it above the body and the answer
// screen over its keys: the title, the warnings first and whole, what an
// update changed, then each field under its label, wrapped.
func CardLines(st Styles, c invite.Card, w int) []string {
	out := []string{st.Title.Render(textsafe.Fit(textsafe.Line(c.Title+": "+c.Summary), w))}
	for _, warn := range c.Warnings {
		out = append(out, Hanging(st.StatusError.Render, "! "+textsafe.Line(warn), w)...)
	}
	fields := c.Fields
	if len(c.Changes) > 0 {
		fields = append([]invite.Field{{Label: "Changed", Value: strings.Join(c.Changes, "; ")}}, fields...)
	}
	room := max(w-cardLabel, 1)
	for _, f := range fields {
		for i, l := range strings.Split(Wrap(textsafe.Line(f.Value), room), "\n") {
			label := strings.Repeat(" ", cardLabel)
			if i == 0 {
				label = st.Label.Render(textsafe.Fit(textsafe.Line(f.Label)+":", cardLabel))
			}
			out = append(out, label+textsafe.Fit(l, room))
		}
	}
	return out
}
