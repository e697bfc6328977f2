package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// A stranger's mail in Drafts (the attack: it was moved there)
// is not the person's draft: list_drafts calls it found, dated no later
// than now although its Date is a day ahead. So is the local copy a
// person opened from it, which the agent cannot discard either. A draft
// postponed from this data directory is the person's.
func TestListDraftsTellsFoundFromThePersons(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	ahead := time.Now().Add(24 * time.Hour)
	stranger := "From: Alice <alice@uharness.test.evil.example>\r\nTo: Bob <bob@example.com>\r\nSubject: wire the deposit\r\n" +
		"Date: " + ahead.Format(time.RFC1123Z) + "\r\nMessage-ID: <evil-1@uharness.test.evil.example>\r\n\r\nPlease wire it today.\r\n"
	if _, err := w.srv.Append("sam", "Drafts", []byte(stranger), []imap.Flag{imap.FlagSeen}, time.Now()); err != nil {
		t.Fatal(err)
	}

	// A person postpones one from here, as the TUI's p does.
	box, err := outbox.Open(w.root)
	if err != nil {
		t.Fatal(err)
	}
	writer := drafting.NewWriter(box, 0)
	p, err := compose.Draft{From: model.Address{Address: "sam@example.com"}, To: []model.Address{{Address: "bob@example.com"}},
		Subject: "postponed here", Body: "later"}.Prepare(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	id, err := w.set.Find("Work").Append(t.Context(), "", "drafts", p.Saved, []string{`\Draft`, `\Seen`}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := writer.Postponed(id, p.MessageID); err != nil {
		t.Fatal(err)
	}

	// And the local copy a person opened from a found draft.
	opened, err := box.NewDraft("Work", "new", nil, []byte("From: Alice <alice@uharness.test.evil.example>\nTo: bob@example.com\nSubject: opened\n\ntext"))
	if err != nil {
		t.Fatal(err)
	}
	opened.Found = true
	opened.ServerDraft = &outbox.Ref{Account: "Work", Folder: "Drafts", UIDValidity: 1, UID: 99}
	if err := box.SaveDraft(opened, nil); err != nil {
		t.Fatal(err)
	}

	var list ListDraftsOut
	r.mustCall(t, "list_drafts", ListDraftsIn{}, &list)
	by := map[string]DraftInfo{}
	for _, d := range list.Drafts {
		by[d.Subject] = d
	}
	for _, c := range []struct{ subject, author string }{
		{"wire the deposit", drafting.Found}, {"opened", drafting.Found}, {"postponed here", drafting.Person},
	} {
		if got := by[c.subject].Author; got != c.author {
			t.Errorf("%q is listed as %q, want %q (%+v)", c.subject, got, c.author, list.Drafts)
		}
	}
	if u, err := time.Parse(time.RFC3339, by["wire the deposit"].Updated); err != nil || u.After(time.Now()) {
		t.Errorf("the found draft is dated %q: its own Date, a day ahead", by["wire the deposit"].Updated)
	}
	res := r.call(t, "discard_draft", DiscardDraftIn{DraftID: opened.ID}, nil)
	if !res.IsError || !strings.Contains(accounts.ResultText(res), "an agent cannot discard it") {
		t.Fatalf("discarding the found draft's local copy: %q", accounts.ResultText(res))
	}
}
