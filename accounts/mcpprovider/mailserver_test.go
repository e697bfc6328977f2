package mcpprovider

import (
	"errors"
	"strings"
	"testing"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/model"
)

// Reads through an mcp-mail-server-like child: JSON in every address
// shape, merged searches, the node-imap folder tree.
func TestMailServerReads(t *testing.T) {
	w := newWorld(t, "mcp-mail-server", nil)
	w.seed(inbox()...)
	ctx := t.Context()
	p := w.spec.Provider

	pg, err := p.List(ctx, w.a, provider.ListOptions{Limit: 10})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(pg.Messages) != 3 {
		t.Fatalf("page: %+v", pg)
	}
	for i, uid := range []uint32{3, 2, 1} {
		m := pg.Messages[i]
		src := w.box().find("INBOX", uid)
		if m.ID != w.id("INBOX", uid) || m.From.Address != src.FromAddr || m.From.Name != src.FromName ||
			m.Seen != src.Seen || m.Flagged != src.Flagged || len(m.To) != 1 || !m.Date.Equal(src.Date) {
			t.Errorf("message %d (from shape %d): %+v", uid, uid%4, m)
		}
	}
	if pg.Messages[0].Subject != "Build failed" {
		t.Errorf("subject not sanitised: %q", pg.Messages[0].Subject)
	}
	unread, err := p.List(ctx, w.a, provider.ListOptions{UnreadOnly: true})
	if err != nil || len(unread.Messages) != 2 || w.calls("get_unseen_messages") != 1 {
		t.Fatalf("unread: %v %+v", err, unread)
	}

	b, err := p.Get(ctx, w.a, w.id("INBOX", 2))
	if err != nil || b.Text != "Noon at the usual place.\nAnn" || b.Subject != "Lunch?" || !b.Flagged {
		t.Fatalf("get: %v %+v", err, b)
	}
	if _, err := p.Get(ctx, w.a, w.id("INBOX", 99)); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("get of a missing uid: %v", err)
	}
	if _, ok, err := p.Lookup(ctx, w.a, "INBOX", 99); ok || err != nil {
		t.Fatalf("lookup of a missing uid: %v %v", ok, err)
	}

	// "example" is in every sender, "invoice" in a subject and a body: merged, each uid once.
	found, err := p.Search(ctx, w.a, "INBOX", "invoice", 10, 0)
	if err != nil || len(found.Messages) != 1 || found.Messages[0].ID.UID != 1 {
		t.Fatalf("search invoice: %v %+v", err, found)
	}
	found, err = p.Search(ctx, w.a, "INBOX", "example", 10, 0)
	if err != nil || len(found.Messages) != 3 {
		t.Fatalf("search example: %v %+v", err, found)
	}
	for _, tool := range []string{"search_by_body", "search_by_subject", "search_by_sender"} {
		if w.calls(tool) != 2 {
			t.Errorf("%s called %d times, want 2", tool, w.calls(tool))
		}
	}

	fs, err := p.Folders(ctx, w.a)
	if err != nil || len(fs) != len(fxFolders)+1 || fs[0].Name != "INBOX" {
		t.Fatalf("folders: %v %+v", err, fs)
	}
	names := map[string]string{}
	for _, f := range fs {
		names[f.Name] = f.SpecialUse
	}
	if names["Archive"] != "archive" || names["Trash"] != "trash" || names["[Gmail]/Starred"] != "" {
		t.Fatalf("folders: %+v", fs)
	}
	if _, ok := names["[Gmail]"]; ok {
		t.Fatal("a \\Noselect folder was listed")
	}
}

// What mcp-mail-server cannot do (or must not be trusted with) is
// refused without a call, with a reason a person can act on.
func TestMailServerUnsupported(t *testing.T) {
	w := newWorld(t, "mcp-mail-server", nil)
	w.seed(inbox()...)
	ctx := t.Context()
	p := w.spec.Provider
	cases := []struct {
		op   model.Op
		want string
	}{
		{model.Op{Action: model.ActSetSeen, Value: true}, "markSeen is a no-op"},
		{model.Op{Action: model.ActSetFlagged, Value: true}, "no tool to flag"},
		{model.Op{Action: model.ActArchive}, "cannot archive"},
		{model.Op{Action: model.ActMove, To: "Projects"}, "no tool to move"},
		{model.Op{Action: model.ActTrash}, "expunges every message"},
	}
	for _, c := range cases {
		res, err := p.Write(ctx, w.a, c.op, "INBOX", 0, []uint32{1})
		if !errors.Is(err, provider.ErrUnsupported) || res != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v %v", c.op.Verb(), res, err)
		}
	}
	_, err := p.List(ctx, w.a, provider.ListOptions{Folder: "Archive"})
	if !errors.Is(err, provider.ErrUnsupported) || !strings.Contains(err.Error(), "reaches only INBOX") {
		t.Fatalf("list of Archive: %v", err)
	}
	if _, err := p.Get(ctx, w.a, w.id("Sent", 1)); !errors.Is(err, provider.ErrUnsupported) {
		t.Fatalf("get from Sent: %v", err)
	}
	if n := len(w.lines("calls")); n != 0 || w.a.Status().Dials != 0 {
		t.Fatalf("unsupported operations reached the server: %d calls, %d dials", n, w.a.Status().Dials)
	}
}

// An account mapping overrides or adds operations; without a profile an
// unmapped operation says how to map it.
func TestAccountMappingOverrides(t *testing.T) {
	w := newWorld(t, "mcp-mail-server", func(ac *config.Account) {
		ac.Tools = map[string]config.ToolCall{"get": {Tool: "get_message", Args: map[string]any{"uid": "{uid}", "markSeen": false}}}
	})
	w.seed(inbox()...)
	if _, err := w.spec.Provider.Get(t.Context(), w.a, w.id("INBOX", 1)); err != nil {
		t.Fatalf("get through the account's mapping: %v", err)
	}
	if args := strings.Join(w.lines("args"), " "); !strings.Contains(args, `"markSeen":false`) {
		t.Fatalf("the account's mapping was not used: %s", args)
	}

	bare := &mcpProvider{account: "x", prof: &profile{ops: map[string]mapping{}, why: map[string]string{}}}
	_, err := bare.Write(t.Context(), nil, model.Op{Action: model.ActArchive}, "INBOX", 0, []uint32{1})
	if !errors.Is(err, provider.ErrUnsupported) || !strings.Contains(err.Error(), "[account.tools.archive]") {
		t.Fatalf("unmapped: %v", err)
	}
}
