package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/accounts/history"
	"unibox/accounts/send/outbox"
)

// An agent's reply lands in the account's Drafts over IMAP, flagged
// \Draft and \Seen, threaded as the TUI threads it, and in the local
// drafts once, as the agent's; nothing reaches the SMTP server.
func TestDraftReplyFilesInDrafts(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	id := r.original(t)
	var out DraftOut
	r.mustCall(t, "draft_reply", map[string]any{"id": id, "body": "Noon works.\n\tSee you.", "reply_all": true}, &out)
	if out.DraftID == "" || out.Account != "Work" || out.SavedTo != "Drafts" || out.Subject != "Re: lunch?" || out.InReplyTo.ID != id ||
		len(out.To) != 1 || out.To[0].Address != "bob@example.com" || len(out.Cc) != 1 || out.Cc[0].Address != "carol@example.com" {
		t.Fatalf("draft_reply: %+v", out)
	}
	stored := w.folder(t, "Drafts")
	if len(stored) != 1 {
		t.Fatalf("Drafts holds %d messages", len(stored))
	}
	if !slices.Contains(stored[0].Flags, imap.FlagDraft) || !slices.Contains(stored[0].Flags, imap.FlagSeen) {
		t.Fatalf("flags %v", stored[0].Flags)
	}
	raw := string(stored[0].Raw)
	for _, want := range []string{"In-Reply-To: <lunch-1@example.com>\r\n", "References: <first@example.com> <lunch-1@example.com>\r\n",
		"Subject: Re: lunch?\r\n", "Message-Id: <" + out.MessageID + ">\r\n", "Noon works.\r\n\tSee you.\r\n", "> Noon?"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the copy in Drafts lacks %q:\n%s", want, raw)
		}
	}
	if w.smtp.Sessions() != 0 || len(w.smtp.Delivered()) != 0 {
		t.Fatalf("the SMTP server was reached: %d sessions", w.smtp.Sessions())
	}

	var list ListDraftsOut
	r.mustCall(t, "list_drafts", ListDraftsIn{}, &list)
	if len(list.Drafts) != 1 {
		t.Fatalf("list_drafts must list the draft once: %+v", list.Drafts)
	}
	d := list.Drafts[0]
	if d.DraftID != out.DraftID || d.Author != "agent" || d.Where != "local" || d.SavedID != out.SavedID || d.Answers == nil ||
		d.Answers.ID != id || d.Answers.Subject != "lunch?" || d.Subject != "Re: lunch?" {
		t.Fatalf("listed %+v", d)
	}
	box, _ := outbox.Open(w.root)
	dr, _, err := box.Draft(out.DraftID)
	if err != nil || dr.ServerDraft == nil || dr.ServerDraft.MessageID != out.MessageID || dr.InReplyTo != "lunch-1@example.com" {
		t.Fatalf("local draft %+v, %v", dr, err)
	}
	if !hasEvent(w.set.Accounts[0].History(50), "agent created a draft: \"Re: lunch?\" to bob@example.com, carol@example.com") {
		t.Fatalf("no history event: %+v", w.set.Accounts[0].History(50))
	}
}

func hasEvent(es []history.Event, text string) bool {
	for _, e := range es {
		if e.Kind == history.KindDraft && e.Text == text {
			return true
		}
	}
	return false
}

// draft_message files a new message; a draft another client put in
// Drafts is listed too, as found (not written from here: issue 35).
func TestDraftMessage(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	var out DraftOut
	r.mustCall(t, "draft_message", DraftMessageIn{Account: "Work", To: []string{"Ann <ann@example.org>"}, Cc: []string{"dan@example.org"}, Subject: "Plans", Body: "Monday?"}, &out)
	stored := w.folder(t, "Drafts")
	if len(stored) != 1 || !strings.Contains(string(stored[0].Raw), "To: \"Ann\" <ann@example.org>\r\nCc: <dan@example.org>\r\nSubject: Plans\r\n") ||
		!slices.Contains(stored[0].Flags, imap.FlagDraft) {
		t.Fatalf("Drafts: %d\n%s", len(stored), stored[0].Raw)
	}
	if _, err := w.srv.Append("sam", "Drafts", []byte("From: sam@example.com\r\nTo: eve@example.org\r\nSubject: by hand\r\n\r\nx\r\n"), []imap.Flag{imap.FlagDraft}, time.Now()); err != nil {
		t.Fatal(err)
	}
	var list ListDraftsOut
	r.mustCall(t, "list_drafts", ListDraftsIn{Account: "Work"}, &list)
	authors := map[string]string{}
	for _, d := range list.Drafts {
		authors[d.Subject] = d.Author + " " + d.Where
	}
	if len(list.Drafts) != 2 || authors["Plans"] != "agent local" || authors["by hand"] != "found drafts_folder" {
		t.Fatalf("list_drafts: %+v", list.Drafts)
	}
	if res := r.call(t, "list_drafts", ListDraftsIn{Account: "Nope"}, nil); !res.IsError || !strings.Contains(accounts.ResultText(res), `no account "Nope"`) {
		t.Fatalf("unknown account: %s", accounts.ResultText(res))
	}
}

// What an agent may not draft is refused with a tool error naming the
// field, and nothing reaches Drafts.
func TestDraftRefusalsNameTheField(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	id := r.original(t)
	many := make([]string, 51)
	for i := range many {
		many[i] = "p@example.org"
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"bidi in a reply", "draft_reply", map[string]any{"id": id, "body": "ok \u202egnp.exe"}, "body: holds a bidi control (U+202E)"},
		{"zero width in a reply", "draft_reply", map[string]any{"id": id, "body": "in\u200bvoice"}, "body: holds a zero-width character (U+200B)"},
		{"tag-encoded secret in a message", "draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org"}, "subject": "Monday",
			"body": "Thanks, see you Monday.\U000E0070\U000E0077\U000E003D\U000E0068\U000E0075\U000E006E"}, "body: holds a tag character (U+E0070): it is not drawn"},
		{"filler in a subject", "draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org"}, "subject": "Monday\u3164", "body": "x"}, "subject: holds a blank character that draws nothing (a filler) (U+3164)"},
		{"selector in a reply", "draft_reply", map[string]any{"id": id, "body": "ok\U000E0100"}, "body: holds a variation selector outside an emoji sequence (U+E0100)"},
		{"lone CR in a reply", "draft_reply", map[string]any{"id": id, "body": "a\rb"}, "body: holds a lone CR"},
		{"huge reply", "draft_reply", map[string]any{"id": id, "body": strings.Repeat("x", 256<<10+1)}, "body: 262145 bytes, over the limit of 262144"},
		{"bad id", "draft_reply", map[string]any{"id": "Work/INBOX/x", "body": "ok"}, "message id"},
		{"header injection", "draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org"}, "subject": "hi\r\nBcc: x@evil.example", "body": "x"}, "subject: holds a line break (U+000D)"},
		{"control in cc", "draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org"}, "cc": []string{"b\x00@example.org"}, "subject": "hi", "body": "x"}, "cc[0]: holds a control character (U+0000)"},
		{"bad address", "draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org", "nobody"}, "subject": "hi", "body": "x"}, "to[1]: \"nobody\" is not an address"},
		{"too many", "draft_message", map[string]any{"account": "Work", "to": many, "subject": "hi", "body": "x"}, "to and cc: 51 addresses, over the limit of 50"},
		{"long subject", "draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org"}, "subject": strings.Repeat("s", 999), "body": "x"}, "subject: 999 bytes, over the limit of 998"},
		{"no account", "draft_message", map[string]any{"account": "Home", "to": []string{"a@example.org"}, "subject": "hi", "body": "x"}, `no account "Home"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.call(t, tt.tool, tt.args, nil)
			if got := accounts.ResultText(res); !res.IsError || !strings.HasPrefix(got, tt.want) {
				t.Fatalf("got %q (error %v), want %q...", got, res.IsError, tt.want)
			}
		})
	}
	if n := len(w.folder(t, "Drafts")); n != 0 {
		t.Fatalf("Drafts holds %d refused drafts", n)
	}
}

// The hourly cap is one count for every hub (every `unibox mcp`) on a
// root: two hubs together get max drafts, no more.
func TestHourlyCapAcrossHubs(t *testing.T) {
	w := newDraftWorld(t)
	a, _ := w.hub(t, 2)
	b, _ := w.hub(t, 2)
	msg := DraftMessageIn{Account: "Work", To: []string{"a@example.org"}, Subject: "hi", Body: "x"}
	a.mustCall(t, "draft_message", msg, nil)
	b.mustCall(t, "draft_message", msg, nil)
	for _, r := range []*rig{a, b} {
		res := r.call(t, "draft_message", msg, nil)
		if got := accounts.ResultText(res); !res.IsError || !strings.Contains(got, "2 drafts for this account in the last hour, the limit is 2 ([agent] max_drafts_per_hour)") {
			t.Fatalf("third draft: %q", got)
		}
	}
	if n := len(w.folder(t, "Drafts")); n != 2 {
		t.Fatalf("Drafts holds %d", n)
	}
}

// An agent may discard its own draft (Drafts loses it too), but not one
// a person edited since, nor a person's own.
func TestDiscardDraft(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	id := r.original(t)
	var kept, gone DraftOut
	r.mustCall(t, "draft_reply", map[string]any{"id": id, "body": "first"}, &kept)
	r.mustCall(t, "draft_reply", map[string]any{"id": id, "body": "second", "quote": false}, &gone)

	// A person edits the first in the TUI: its editor rewrites the text.
	tui, err := outbox.Open(w.root)
	if err != nil {
		t.Fatal(err)
	}
	dr, text, err := tui.Draft(kept.DraftID)
	if err != nil {
		t.Fatal(err)
	}
	if err := tui.SaveDraft(dr, []byte(strings.Replace(string(text), "first", "first, and I agree", 1))); err != nil {
		t.Fatal(err)
	}
	res := r.call(t, "discard_draft", DiscardDraftIn{DraftID: kept.DraftID}, nil)
	if got := accounts.ResultText(res); !res.IsError || !strings.Contains(got, "written or edited by a person: an agent cannot discard it") {
		t.Fatalf("discarding an edited draft: %q", got)
	}
	mine, err := tui.NewDraft("Work", "new", nil, []byte("To: b@example.org\nSubject: mine\n\nhello"))
	if err != nil {
		t.Fatal(err)
	}
	if res := r.call(t, "discard_draft", DiscardDraftIn{DraftID: mine.ID}, nil); !res.IsError {
		t.Fatal("an agent discarded a person's draft")
	}

	var out DiscardDraftOut
	r.mustCall(t, "discard_draft", DiscardDraftIn{DraftID: gone.DraftID}, &out)
	stored := w.folder(t, "Drafts")
	if len(stored) != 1 || !strings.Contains(string(stored[0].Raw), "first") {
		t.Fatalf("Drafts must hold the edited draft's copy only: %d", len(stored))
	}
	var list ListDraftsOut
	r.mustCall(t, "list_drafts", ListDraftsIn{}, &list)
	authors := map[string]string{}
	for _, d := range list.Drafts {
		authors[d.DraftID] = d.Author
	}
	if len(list.Drafts) != 2 || authors[kept.DraftID] != "person" || authors[mine.ID] != "person" {
		t.Fatalf("list_drafts: %+v", list.Drafts)
	}
}

// There is no tool that sends, and none whose name starts with send.
func TestNoSendTool(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	res, err := r.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if strings.HasPrefix(strings.ToLower(tool.Name), "send") || strings.Contains(strings.ToLower(tool.Name), "send") {
			t.Errorf("tool %s sends", tool.Name)
		}
	}
	for _, want := range []string{"draft_reply", "draft_message", "list_drafts", "discard_draft"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s in %v", want, names)
		}
	}
}

// unibox://drafts tells a subscriber when a draft changes in another
// process: here a Box of its own, as the TUI has.
func TestDraftsResourceNotifies(t *testing.T) {
	w := newDraftWorld(t)
	r, updated := w.hub(t, 100)
	if err := r.cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: DraftsURI}); err != nil {
		t.Fatal(err)
	}
	tui, err := outbox.Open(w.root)
	if err != nil {
		t.Fatal(err)
	}
	d, err := tui.NewDraft("Work", "new", nil, []byte("To: b@example.org\nSubject: from the TUI\n\nhello"))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.After(15 * time.Second)
	for {
		select {
		case uri := <-updated:
			if uri != DraftsURI {
				continue
			}
			res, err := r.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: DraftsURI})
			if err != nil {
				t.Fatal(err)
			}
			var list ListDraftsOut
			if err := json.Unmarshal([]byte(res.Contents[0].Text), &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Drafts) == 1 && list.Drafts[0].DraftID == d.ID && list.Drafts[0].Author == "person" && list.Drafts[0].Subject == "from the TUI" {
				return
			}
		case <-deadline:
			t.Fatal("no update of unibox://drafts after another Box wrote a draft")
		}
	}
}

// Under MCP 2026-07-28 Subscribe returns once the request is sent: the
// server's handler may run after a draft the agent writes next. So the
// watch measures from when the server was built, and a draft written
// before the handler ran (here: before Subscribe) is told all the same.
// With the first look taken in the handler, it was part of the baseline
// and never told (TestDraftsResourceNotifies failed 3 runs in 40 under
// load).
func TestDraftsBeforeTheSubscriptionAreTold(t *testing.T) {
	w := newDraftWorld(t)
	r, updated := w.hub(t, 100)
	other, err := outbox.Open(w.root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.NewDraft("Work", "new", nil, []byte("To: b@example.org\nSubject: early\n\nhello")); err != nil {
		t.Fatal(err)
	}
	if err := r.cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: DraftsURI}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(15 * time.Second)
	for {
		select {
		case uri := <-updated:
			if uri == DraftsURI {
				return
			}
		case <-deadline:
			t.Fatal("no update of unibox://drafts for a draft written before the subscription was handled")
		}
	}
}

// An account whose server does not answer is named first in list_drafts;
// its local drafts are listed all the same.
func TestListDraftsNamesAnUnreachableAccount(t *testing.T) {
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	var out DraftOut
	r.mustCall(t, "draft_message", DraftMessageIn{Account: "Work", To: []string{"a@example.org"}, Subject: "kept", Body: "x"}, &out)
	w.srv.Refuse()
	w.srv.DropAll()
	var list ListDraftsOut
	text := r.mustCall(t, "list_drafts", ListDraftsIn{}, &list)
	if len(list.Degraded) != 1 || !strings.HasPrefix(list.Degraded[0], "Work ") || !strings.HasPrefix(text, list.Degraded[0]) {
		t.Fatalf("degraded %q; text:\n%s", list.Degraded, text)
	}
	if len(list.Drafts) != 1 || list.Drafts[0].DraftID != out.DraftID || list.Drafts[0].Author != "agent" {
		t.Fatalf("drafts %+v", list.Drafts)
	}
}
