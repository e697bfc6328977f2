package serveimap

import (
	"github.com/emersion/go-imap/v2"

	"unibox/accounts/mailtext"
	"unibox/model"
)

// invitation reads from a message's structure whether it carries a
// calendar part (issue 41) and its iTIP method, so a list row says
// "[invite]" or "[cancelled]" from the envelope fetch alone: the first
// text/calendar (or application/ics, or *.ics) part, as the message view
// reads the same one. A forwarded message's parts are its own business.
func invitation(bs imap.BodyStructure) model.Invitation {
	if bs == nil {
		return model.InviteNone
	}
	found := model.InviteNone
	bs.Walk(func(path []int, part imap.BodyStructure) bool {
		sp, ok := part.(*imap.BodyStructureSinglePart)
		if !ok {
			return found == model.InviteNone
		}
		if found == model.InviteNone && mailtext.IsCalendar(sp.MediaType(), sp.Filename()) {
			found = model.InvitationOf(mailtext.Method(sp.Params["method"]))
		}
		return false
	})
	return found
}
