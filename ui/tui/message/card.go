package message

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

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
	return &invitation{inv: inv, card: invite.Describe(inv, invite.Reader{Addresses: v.own, Zone: v.loc, Sender: b.From.Address, Replied: b.Answered})}
}

// EventsMsg is what the store holds of the invitation's event: the
// versions an update is told against, and the person's answers in Sent.
type EventsMsg struct {
	Req      uint64
	versions []invite.Version
}

func (m EventsMsg) AccountIndex() int { return screen.NoAccount }

// recallCmd reads the stored versions of the invitation on screen (from
// the store alone: never a dial), nil when there is none or no store.
func (v Viewer) recallCmd() tea.Cmd {
	st := screen.StoredOf(v.acct)
	if v.invite == nil || v.invite.err != "" || st == nil || len(v.invite.inv.Events) == 0 {
		return nil
	}
	ctx, req, uid := v.ctx, v.Req, v.invite.inv.Events[0].UID
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		vs, _ := st.Events(cctx, uid) // none read: the card stands as the part alone says it
		return EventsMsg{Req: req, versions: vs}
	}
}

// recalled tells the card what the store knows: what an update changed,
// and the answer the person sent.
func (v Viewer) recalled(msg EventsMsg) Viewer {
	in := v.invite
	if msg.Req != v.Req || in == nil || in.err != "" || len(msg.versions) == 0 {
		return v
	}
	b := v.body
	self := invite.Version{Folder: b.ID.Folder, UID: b.ID.UID, UIDValidity: b.ID.UIDValidity}
	rec := invite.Recall(in.inv.Events[0], msg.versions, v.own, self, v.loc)
	if rec.Earlier == nil && rec.Later == nil && rec.Answered == nil && len(rec.Dropped) == 0 {
		return v
	}
	card := invite.Describe(in.inv, invite.Reader{Addresses: v.own, Zone: v.loc, Sender: b.From.Address,
		Earlier: rec.Earlier, Later: rec.Later, Dropped: rec.Dropped, Answered: rec.Answered, Replied: b.Answered})
	v.invite = &invitation{inv: in.inv, card: card}
	top := v.Viewport.YOffset
	v = v.setText(v.content())
	v.Viewport.SetYOffset(top)
	return v
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
