package agent

import (
	"strings"
	"testing"

	"unibox/accounts"
	"unibox/model"
)

// An IMAP account's id that says UIDVALIDITY 0 is refused as a changed
// UIDVALIDITY is, before any command: IMAP never gives 0, so the id was not
// made from a listing, and with it the child would skip the check that the
// uid still names the message it was read as.
func TestUIDValidityZeroIsRefused(t *testing.T) {
	r := newRig(t, 1)
	var list ListOut
	r.mustCall(t, "list_messages", ListIn{}, &list)
	r.settled(t)
	real, _ := model.ParseMessageID(list.Messages[0].ID)
	forged := real
	forged.UIDValidity = 0
	before := r.commands()

	var w WriteOut
	r.mustCall(t, "move", MoveIn{IDs: []string{forged.String()}, To: "Archive"}, &w)
	if len(w.Outcomes) != 1 || w.Outcomes[0].Status != "failed" || !strings.Contains(w.Outcomes[0].Error, "UIDVALIDITY 0") {
		t.Fatalf("move of a UIDVALIDITY 0 id: %+v", w.Outcomes)
	}
	r.mustCall(t, "set_flags", FlagsIn{IDs: []string{forged.String()}, Flagged: new(bool)}, &w)
	if len(w.Outcomes) != 1 || w.Outcomes[0].Status != "failed" {
		t.Fatalf("set_flags of a UIDVALIDITY 0 id: %+v", w.Outcomes)
	}
	res := r.call(t, "get_message", GetIn{ID: forged.String()}, nil)
	if text := accounts.ResultText(res); !res.IsError || !strings.Contains(text, "UIDVALIDITY 0") {
		t.Fatalf("get_message of a UIDVALIDITY 0 id: %s", text)
	}
	// The LIST is the wall's (walls.go: where Sent and Drafts are), sent
	// before any write and naming no message.
	for _, c := range r.commands()[len(before):] {
		if !strings.Contains(c, "LIST") {
			t.Fatalf("a UIDVALIDITY 0 id reached the server: %v", r.commands()[len(before):])
		}
	}
	r.mustCall(t, "list_messages", ListIn{}, &list)
	if len(list.Messages) != 1 || list.Messages[0].ID != real.String() {
		t.Fatalf("the message moved: INBOX now %+v", list.Messages)
	}
}

// INBOX is INBOX in any case: a move from INBOX to "inbox" is a move to
// the same folder, refused before any MOVE, and the message keeps its uid
// (a server would move it onto itself under a new one).
func TestMoveToInboxInAnyCaseIsRefused(t *testing.T) {
	r := newRig(t, 1)
	var list ListOut
	r.mustCall(t, "list_messages", ListIn{Folder: "Inbox"}, &list)
	if len(list.Messages) != 1 || !strings.HasPrefix(list.Messages[0].ID, "Work/INBOX/") {
		t.Fatalf("a listing of \"Inbox\" must give INBOX ids: %+v", list.Messages)
	}
	id := list.Messages[0].ID
	r.settled(t)
	for _, to := range []string{"inbox", "Inbox", "INBOX"} {
		before := r.commands()
		var w WriteOut
		r.mustCall(t, "move", MoveIn{IDs: []string{id}, To: to}, &w)
		if len(w.Outcomes) != 1 || w.Outcomes[0].Status != "failed" || !strings.Contains(w.Outcomes[0].Error, "cannot move") {
			t.Fatalf("move to %q: %+v", to, w.Outcomes)
		}
		for _, c := range r.commands()[len(before):] {
			if strings.Contains(c, "MOVE") || strings.Contains(c, "COPY") {
				t.Fatalf("move to %q sent %s", to, c)
			}
		}
	}
	r.mustCall(t, "list_messages", ListIn{}, &list)
	if len(list.Messages) != 1 || list.Messages[0].ID != id {
		t.Fatalf("the message was re-uided: INBOX now %+v, was %s", list.Messages, id)
	}
}
