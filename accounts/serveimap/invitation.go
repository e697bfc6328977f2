package serveimap

import (
	"context"
	"fmt"
	"slices"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
	"unibox/model"
)

// invitation reads from a message's structure whether it carries a
// calendar part (issue 41) and its iTIP method, so a list row says
// "[invite]" or "[cancelled]" from the envelope fetch alone: the first
// text/calendar (or application/ics, or *.ics) part, as the message view
// reads the same one; and where that part is, for sync_folder to fetch it
// alone. A forwarded message's parts are its own business.
func invitation(bs imap.BodyStructure) (model.Invitation, *imapwire.CalendarPart) {
	if bs == nil {
		return model.InviteNone, nil
	}
	found, part := model.InviteNone, (*imapwire.CalendarPart)(nil)
	bs.Walk(func(path []int, p imap.BodyStructure) bool {
		sp, ok := p.(*imap.BodyStructureSinglePart)
		if !ok {
			return found == model.InviteNone
		}
		if found == model.InviteNone && mailtext.IsCalendar(sp.MediaType(), sp.Filename()) {
			found = model.InvitationOf(mailtext.Method(sp.Params["method"]))
			part = &imapwire.CalendarPart{Path: slices.Clone(path), Encoding: sp.Encoding, Charset: sp.Params["charset"], Size: sp.Size}
		}
		return false
	})
	return found, part
}

// Bounds of the calendar parts sync_folder fetches with new mail.
const (
	// maxCalendarWire: a part larger than this as sent (base64 of
	// mailtext.MaxCalendar, and some) is not fetched; the message view
	// says it is too big.
	maxCalendarWire = mailtext.MaxCalendar*4/3 + 64<<10
	// calendarBudget: the most calendar bytes one sync_folder call reads;
	// the rest are stored when they are opened.
	calendarBudget = 4 << 20
)

// fetchCalendars fills in the calendar text of the invitations among
// msgs: one UID FETCH of BODY.PEEK[part] per part path (most invitations
// share theirs), each part capped, within calendarBudget.
func (a *account) fetchCalendars(ctx context.Context, c *imapclient.Client, msgs []imapwire.Message) error {
	type group struct {
		section *imap.FetchItemBodySection
		uids    imap.UIDSet
	}
	groups := map[string]*group{}
	byUID := map[uint32]*imapwire.Message{}
	budget := int64(calendarBudget)
	for i := range msgs {
		m := &msgs[i]
		p := m.CalendarPart
		if p == nil || p.Size > maxCalendarWire || int64(p.Size) > budget {
			continue
		}
		budget -= int64(p.Size)
		key := fmt.Sprint(p.Path)
		g := groups[key]
		if g == nil {
			g = &group{section: &imap.FetchItemBodySection{Part: p.Path, Peek: true, Partial: &imap.SectionPartial{Offset: 0, Size: maxCalendarWire}}}
			groups[key] = g
		}
		g.uids.AddNum(imap.UID(m.UID))
		byUID[m.UID] = m
	}
	for _, g := range groups {
		opts := &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{g.section}}
		err := a.fetchEach(ctx, c, g.uids, opts, func(b *imapclient.FetchMessageBuffer) {
			m := byUID[uint32(b.UID)]
			if m == nil || m.CalendarPart == nil {
				return
			}
			if text, ok := mailtext.DecodeCalendar(b.FindBodySection(g.section), m.CalendarPart.Encoding, m.CalendarPart.Charset); ok {
				m.Calendar = text
			}
		})
		if err != nil {
			return fmt.Errorf("fetching calendar parts: %w", err)
		}
	}
	return nil
}
