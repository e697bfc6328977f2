package agent

import (
	"os"
	"strings"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/imaptest"
)

// seedInvitation puts an invitation from Bob into sam's INBOX under
// subject: the corpus file, its organizer made Bob and sam@example.com
// replaced by attendee (someone else: sam is not invited); it returns
// its id.
func seedInvitation(t *testing.T, w *draftWorld, r *rig, file, subject, attendee string) string {
	t.Helper()
	data, err := os.ReadFile("../../model/invite/testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	cal := strings.ReplaceAll(string(data), "lukasz.nowak@contoso.example", "bob@example.com")
	cal = strings.ReplaceAll(cal, "priya@example.com", "bob@example.com")
	cal = strings.ReplaceAll(cal, "sam@example.com", attendee)
	raw := imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: subject, Date: time.Now().Add(-time.Minute),
		Body: "You are invited.", Calendar: cal, Method: "REQUEST"}.Bytes()
	if _, err := w.srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	var l ListOut
	r.mustCall(t, "list_messages", ListIn{}, &l)
	for _, m := range l.Messages {
		if m.Subject == subject {
			if m.Invitation != "request" {
				t.Fatalf("list_messages does not mark the invitation: %+v", m)
			}
			return m.ID
		}
	}
	t.Fatalf("no invitation in %+v", l.Messages)
	return ""
}

// get_invitation reads an Outlook series as the card does: times in RFC
// 3339 with the Windows zone resolved, the attendees' answers and the
// account's own; plain mail has none.
func TestGetInvitation(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	id := seedInvitation(t, w, r, "outlook-weekly.ics", "the meeting", "sam@example.com")
	var out InvitationOut
	text := r.mustCall(t, "get_invitation", GetInvitationIn{ID: id}, &out)
	if out.Method != "request" || out.Summary != "Atlas weekly" || out.Sequence != 2 || !out.Answerable || out.Organizer.Email != "bob@example.com" ||
		out.Start == nil || out.Start.Zone != "W. Europe Standard Time" || out.Start.IANA != "Europe/Berlin" || out.Start.Unknown ||
		!strings.HasPrefix(out.Repeats, "every Tuesday until 3 Mar 2027") || out.You == nil || out.You.Answer != "needs_action" || len(out.Attendees) != 2 {
		t.Fatalf("get_invitation: %+v", out)
	}
	if at, err := time.Parse(time.RFC3339, out.Start.At); err != nil || !at.Equal(time.Date(2026, 12, 8, 13, 0, 0, 0, time.UTC)) {
		t.Errorf("start %q (%v): want 14:00 in Berlin", out.Start.At, err)
	}
	if !strings.Contains(text, "Updated invitation: Atlas weekly") {
		t.Errorf("text %q", text)
	}
	res := r.call(t, "get_invitation", GetInvitationIn{ID: r.original(t)}, nil)
	if !res.IsError {
		t.Error("get_invitation read an invitation in plain mail")
	}
}

// draft_rsvp drafts the answer a person sends: to the organizer, the
// iTIP reply with the agent's comment beside it; nothing is sent. An
// invitation that does not name the account is the person's to answer,
// and a hidden character in the comment is refused.
func TestDraftRSVP(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	id := seedInvitation(t, w, r, "google-request.ics", "the meeting", "sam@example.com")
	var out DraftOut
	r.mustCall(t, "draft_rsvp", DraftRSVPIn{ID: id, Response: "decline", Comment: "Out that day, sorry."}, &out)
	if out.Subject != "Declined: Atlas go/no-go" || len(out.To) != 1 || out.To[0].Address != "bob@example.com" || out.InReplyTo == nil || out.InReplyTo.ID != id {
		t.Fatalf("draft_rsvp: %+v", out)
	}
	box, _ := outbox.Open(w.root)
	dr, text, err := box.Draft(out.DraftID)
	if err != nil || dr.Kind != "rsvp" || dr.RSVP == nil || dr.RSVP.Response != "DECLINED" || dr.RSVP.Attendee != "sam@example.com" || !strings.Contains(string(text), "Out that day, sorry.") {
		t.Fatalf("the local draft: %+v %v\n%s", dr, err, text)
	}
	drafts := w.folder(t, "Drafts")
	if len(drafts) != 1 || !strings.Contains(string(drafts[0].Raw), "method=REPLY") {
		t.Fatalf("the copy in Drafts: %d", len(drafts))
	}
	if w.smtp.Sessions() != 0 {
		t.Fatal("draft_rsvp reached the SMTP server")
	}
	for _, tc := range []struct {
		name string
		in   DraftRSVPIn
		want string
	}{
		{"maybe is no response", DraftRSVPIn{ID: id, Response: "maybe"}, "want accept, tentative or decline"},
		{"a hidden character", DraftRSVPIn{ID: id, Response: "accept", Comment: "ok\u200b"}, "comment"},
		{"plain mail", DraftRSVPIn{ID: r.original(t), Response: "accept"}, "no invitation"},
	} {
		res := r.call(t, "draft_rsvp", tc.in, nil)
		if got := accounts.ResultText(res); !res.IsError || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %v %q, want an error saying %q", tc.name, res.IsError, got, tc.want)
		}
	}
	other := seedInvitation(t, w, r, "google-request.ics", "for the team", "team@example.com")
	res := r.call(t, "draft_rsvp", DraftRSVPIn{ID: other, Response: "accept"}, nil)
	if got := accounts.ResultText(res); !res.IsError || !strings.Contains(got, "a person answers it in unibox") {
		t.Errorf("an invitation to another address: %q", got)
	}
}
