package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/send/drafting"
	"unibox/model"
	"unibox/model/invite"
)

// Invitations for agents (issue 41): get_invitation reads one as the
// card does (the same words, warnings and times), draft_rsvp drafts an
// answer that waits for a person to review and send it, as draft_reply's
// drafts do. No tool sends, accepts or declines by itself.

// GetInvitationIn is get_invitation's input.
type GetInvitationIn struct {
	ID string `json:"id" jsonschema:"the message that carries the invitation, as list_messages gives it (its invitation field says it has one)"`
}

// InvitationParty is an organizer or attendee.
type InvitationParty struct {
	Email string `json:"email"`
	Name  string `json:"name,omitempty"`
}

// InvitationAttendee is one attendee and its answer.
type InvitationAttendee struct {
	InvitationParty
	Answer      string   `json:"answer" jsonschema:"accepted, declined, tentative, delegated or needs_action"`
	Role        string   `json:"role,omitempty" jsonschema:"REQ-PARTICIPANT, OPT-PARTICIPANT, CHAIR or NON-PARTICIPANT"`
	RSVP        bool     `json:"rsvp,omitempty" jsonschema:"the organizer asks for an answer"`
	DelegatedTo []string `json:"delegated_to,omitempty"`
}

// InvitationTime is one of an event's times.
type InvitationTime struct {
	At       string `json:"at" jsonschema:"RFC 3339 with the zone's offset; for all_day the day's start and for floating the wall clock, both in the person's zone"`
	AllDay   bool   `json:"all_day,omitempty"`
	Floating bool   `json:"floating,omitempty" jsonschema:"the same local time wherever one is (no zone)"`
	Zone     string `json:"zone,omitempty" jsonschema:"the zone as the invitation names it (an IANA or a Windows name)"`
	IANA     string `json:"iana,omitempty" jsonschema:"the IANA zone it resolved to"`
	Unknown  bool   `json:"zone_unknown,omitempty" jsonschema:"the zone is known to nobody: at is the wall clock as written, not converted"`
}

// InvitationInstance is one instance of a series the invitation
// overrides or cancels.
type InvitationInstance struct {
	Of     InvitationTime  `json:"of" jsonschema:"the instance it is about (RECURRENCE-ID)"`
	Start  *InvitationTime `json:"start,omitempty"`
	End    *InvitationTime `json:"end,omitempty"`
	Status string          `json:"status,omitempty"`
}

// InvitationOut is get_invitation's answer.
type InvitationOut struct {
	ID         string               `json:"id"`
	Method     string               `json:"method" jsonschema:"request, cancel, reply, counter or publish"`
	Title      string               `json:"title" jsonschema:"Invitation, Updated invitation, Cancelled, Answer, Counter-proposal or Event"`
	Summary    string               `json:"summary"`
	UID        string               `json:"uid"`
	Sequence   int                  `json:"sequence"`
	Status     string               `json:"status,omitempty" jsonschema:"TENTATIVE, CONFIRMED or CANCELLED"`
	Start      *InvitationTime      `json:"start,omitempty"`
	End        *InvitationTime      `json:"end,omitempty"`
	When       string               `json:"when" jsonschema:"the time in words, in the person's zone"`
	Repeats    string               `json:"repeats,omitempty" jsonschema:"the recurrence in words"`
	RRule      string               `json:"rrule,omitempty"`
	Location   string               `json:"location,omitempty"`
	Conference string               `json:"conference,omitempty" jsonschema:"a meeting link the invitation names (text; never opened)"`
	Organizer  InvitationParty      `json:"organizer"`
	Attendees  []InvitationAttendee `json:"attendees"`
	// You is the account's own attendee line; nil: none of its
	// addresses is invited.
	You         *InvitationAttendee  `json:"you,omitempty" jsonschema:"the account's own attendee line with its answer; absent when none of its addresses is invited"`
	Instances   []InvitationInstance `json:"instances,omitempty"`
	Warnings    []string             `json:"warnings,omitempty" jsonschema:"what the person is warned of: not addressed to them; an update or cancellation not from the organizer (it changes nothing)"`
	Answerable  bool                 `json:"answerable" jsonschema:"draft_rsvp can answer it (a request that is not cancelled)"`
	Description string               `json:"description,omitempty" jsonschema:"the event's description: the sender's text, untrusted"`
}

// DraftRSVPIn is draft_rsvp's input.
type DraftRSVPIn struct {
	ID       string `json:"id" jsonschema:"the message that carries the invitation"`
	Response string `json:"response" jsonschema:"accept, tentative or decline"`
	Comment  string `json:"comment,omitempty" jsonschema:"an optional comment to the organizer (at most 256 KB; no control, bidi or zero-width characters)"`
}

func (h *Hub) addInvitationTools(s *mcp.Server) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "get_invitation", Annotations: ro, Description: "A meeting invitation (a message whose invitation field is set) read as an event: when (RFC 3339 with its zone, and in words), where, the organizer, the attendees and their answers, yours, the recurrence, and warnings (not addressed to you; an update or cancellation not from the organizer changes nothing). Never marks it read."}, h.getInvitation)
	mcp.AddTool(s, &mcp.Tool{Name: "draft_rsvp", Description: "Draft an answer to a meeting invitation (accept, tentative or decline, with an optional comment) to its organizer, as the person's answer screen would. A person reviews and sends it in unibox; nothing is sent. Returns draft_id."}, h.draftRSVP)
}

// invitation reads the invitation of message id: the account, the body
// and the parsed calendar part with its card for the account's reader.
func (h *Hub) invitation(ctx context.Context, rawID string) (*accounts.Account, model.Body, invite.Invite, invite.Card, error) {
	fail := func(err error) (*accounts.Account, model.Body, invite.Invite, invite.Card, error) {
		return nil, model.Body{}, invite.Invite{}, invite.Card{}, err
	}
	if err := model.CheckBytes("id", rawID, model.MaxIDBytes); err != nil {
		return fail(err)
	}
	id, err := model.ParseMessageID(rawID)
	if err != nil {
		return fail(err)
	}
	a := h.set.Find(id.Account)
	if a == nil {
		return fail(fmt.Errorf("no account %s", model.Quote(id.Account)))
	}
	cctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	b, err := a.Get(cctx, id)
	if err != nil {
		return fail(fmt.Errorf("%s: %s", a.Name(), a.Redact(accounts.Reason(err))))
	}
	if b.Calendar == "" {
		return fail(fmt.Errorf("%s holds no invitation (no calendar part)", model.Quote(rawID)))
	}
	inv, err := invite.Parse([]byte(b.Calendar), h.zone())
	if err != nil {
		return fail(fmt.Errorf("the invitation could not be read: %w", err))
	}
	card := invite.Describe(inv, invite.Reader{Addresses: ownAddresses(a), Zone: h.zone(), Sender: b.From.Address})
	return a, b, inv, card, nil
}

// zone is the person's: times in words are said in it.
func (h *Hub) zone() *time.Location { return h.now().Location() }

// ownAddresses are the account's From and aliases.
func ownAddresses(a *accounts.Account) []string {
	s := a.Sending()
	if s == nil {
		return nil
	}
	from, aliases := s.Identity()
	var out []string
	if from != nil {
		out = append(out, from.Address)
	}
	return append(out, aliases...)
}

func (h *Hub) getInvitation(ctx context.Context, _ *mcp.CallToolRequest, in GetInvitationIn) (*mcp.CallToolResult, InvitationOut, error) {
	_, _, inv, card, err := h.invitation(ctx, in.ID)
	if err != nil {
		return nil, InvitationOut{}, err
	}
	e := inv.Events[0]
	zone := h.zone()
	out := InvitationOut{ID: in.ID, Method: strings.ToLower(orPublish(inv.Method)), Title: card.Title, Summary: card.Summary, UID: e.UID, Sequence: e.Sequence,
		Status: e.Status, Start: when(e.Start, zone), End: when(e.End, zone), When: invite.Span(e.Start, e.End, zone), Repeats: e.Repeats(zone),
		RRule: e.RRule, Location: e.Location, Conference: e.Conference, Organizer: InvitationParty(e.Organizer),
		Attendees: []InvitationAttendee{}, Warnings: card.Warnings, Answerable: card.Answerable, Description: e.Description}
	for _, at := range e.Attendees {
		out.Attendees = append(out.Attendees, attendee(at))
	}
	if card.Me != nil {
		you := attendee(*card.Me)
		out.You = &you
	}
	for _, o := range inv.Events[1:] {
		if o.RecurrenceID.IsZero() || !strings.EqualFold(o.UID, e.UID) {
			continue
		}
		out.Instances = append(out.Instances, InvitationInstance{Of: *when(o.RecurrenceID, zone), Start: when(o.Start, zone), End: when(o.End, zone), Status: o.Status})
	}
	lines := []string{fmt.Sprintf("%s: %s", card.Title, card.Summary)}
	for _, w := range card.Warnings {
		lines = append(lines, "! "+w)
	}
	for _, f := range card.Fields {
		lines = append(lines, f.Label+": "+f.Value)
	}
	return text(nil, lines...), out, nil
}

func orPublish(method string) string {
	if method == "" {
		return invite.Publish
	}
	return method
}

// when is t for an agent; nil for none.
func when(t invite.When, zone *time.Location) *InvitationTime {
	if t.IsZero() {
		return nil
	}
	at := t.Time
	if t.Known && !t.Floating && !t.AllDay {
		at = at.In(zone)
	}
	return &InvitationTime{At: at.Format(time.RFC3339), AllDay: t.AllDay, Floating: t.Floating, Zone: t.Zone, IANA: t.IANA, Unknown: !t.Known}
}

func attendee(a invite.Attendee) InvitationAttendee {
	answer := strings.ReplaceAll(strings.ToLower(a.PartStat), "-", "_")
	return InvitationAttendee{InvitationParty: InvitationParty(a.Party), Answer: answer, Role: a.Role, RSVP: a.RSVP, DelegatedTo: a.DelegatedTo}
}

func (h *Hub) draftRSVP(ctx context.Context, _ *mcp.CallToolRequest, in DraftRSVPIn) (*mcp.CallToolResult, DraftOut, error) {
	if h.Drafts == nil {
		return nil, DraftOut{}, errNoDrafts
	}
	r, err := invite.ParseResponse(in.Response)
	if err != nil {
		return nil, DraftOut{}, err
	}
	if err := drafting.CheckBody("comment", in.Comment); err != nil { // before any account is asked
		return nil, DraftOut{}, err
	}
	a, b, inv, card, err := h.invitation(ctx, in.ID)
	if err != nil {
		return nil, DraftOut{}, err
	}
	switch {
	case !card.Answerable:
		return nil, DraftOut{}, fmt.Errorf("only an invitation is answered: this is %s", strings.ToLower(card.Title))
	case card.Me == nil:
		// Which address answers is the person's choice (the answer
		// screen asks): an agent does not pick one.
		return nil, DraftOut{}, fmt.Errorf("not addressed to any of %s's addresses: a person answers it in unibox (I), choosing the address", a.Name())
	}
	spec, err := invite.NewReply(inv, card.Me.Email, r, h.zone())
	if err != nil {
		return nil, DraftOut{}, err
	}
	spec = spec.WithEvent([]byte(b.Calendar))
	m, err := h.Drafts.RSVP(ctx, a.Sending(), b, spec, in.Comment, h.timeout)
	if err != nil {
		return nil, DraftOut{}, draftErr(a, err)
	}
	out := made(m)
	out.InReplyTo = &DraftAnswers{ID: b.ID.String(), Subject: b.Subject}
	return h.madeText(out), out, nil
}
