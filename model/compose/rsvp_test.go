package compose

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"unibox/model"
	"unibox/model/invite"
)

// An answer to an invitation goes as RFC 6047 says: to the organizer
// (the invitation came from someone else), from the alias that was
// invited with From's name, "Accepted: …", in the thread, and as
// multipart/alternative of a text and text/calendar; method=REPLY, the
// comment in both; no comment when the body is left empty.
func TestRSVPIsAnIMIPReply(t *testing.T) {
	data, err := os.ReadFile("../invite/testdata/google-request.ics")
	if err != nil {
		t.Fatal(err)
	}
	inv, err := invite.Parse(data, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := invite.NewReply(inv, "sam@alias.example", invite.Accepted, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	o := Original{MessageID: "inv-1@google.com", From: model.Address{Name: "Google Calendar", Address: "calendar-notification@google.com"},
		To: []model.Address{{Address: "sam@alias.example"}}, Subject: "Invitation: Atlas go/no-go"}
	self := Identity{From: model.Address{Name: "Sam Example", Address: "sam@example.com"}, Aliases: []string{"sam@alias.example"}}
	for _, comment := range []string{"", "I'll dial in; slides, please."} {
		d := RSVP(o, self, spec)
		if d.Kind != KindRSVP || d.From != (model.Address{Name: "Sam Example", Address: "sam@alias.example"}) ||
			len(d.To) != 1 || d.To[0].Address != "priya@example.com" || d.Subject != "Accepted: Atlas go/no-go" || d.InReplyTo != "inv-1@google.com" {
			t.Fatalf("draft: %+v", d)
		}
		edited, err := Parse(d.Editable()+comment, d)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 12, 7, 16, 0, 0, 0, time.UTC)
		p, err := edited.Prepare(now)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Rcpt) != 1 || p.Rcpt[0] != "priya@example.com" || p.From != "sam@alias.example" {
			t.Fatalf("envelope: from %q to %q", p.From, p.Rcpt)
		}
		r, err := mail.CreateReader(bytes.NewReader(p.Wire))
		if err != nil {
			t.Fatal(err)
		}
		if mt, _, _ := r.Header.ContentType(); mt != "multipart/alternative" {
			t.Fatalf("top level %q", mt)
		}
		var text, cal string
		var method string
		for {
			part, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(part.Body)
			h := part.Header.(*mail.InlineHeader)
			mt, params, _ := h.ContentType()
			switch mt {
			case "text/plain":
				text = string(b)
			case "text/calendar":
				cal, method = string(b), params["method"]
			default:
				t.Fatalf("a %s part", mt)
			}
		}
		if method != "REPLY" || !strings.Contains(text, "Sam Example has accepted this invitation: Atlas go/no-go") {
			t.Fatalf("method %q, text %q", method, text)
		}
		back, err := invite.Parse([]byte(cal), time.UTC)
		if err != nil || back.Method != invite.Reply || back.Events[0].Attendees[0].Email != "sam@alias.example" {
			t.Fatalf("calendar read back: %+v %v\n%s", back, err, cal)
		}
		if comment != "" && (!strings.Contains(cal, `COMMENT:I'll dial in\; slides\, please.`) || !strings.Contains(text, comment)) {
			t.Errorf("comment %q missing:\n%s\n%s", comment, text, cal)
		}
		if comment == "" && strings.Contains(cal, "COMMENT") {
			t.Errorf("an unchanged body made a comment:\n%s", cal)
		}
	}
}
