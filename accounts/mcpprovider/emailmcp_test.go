package mcpprovider

import (
	"errors"
	"strings"
	"testing"

	"unibox/accounts/provider"
	"unibox/conn"
	"unibox/model"
)

// Reads through a real email-mcp-like child: listing text, message text,
// folder text, all parsed and sanitised; opening never marks read.
func TestEmailMCPReads(t *testing.T) {
	w := newWorld(t, "email-mcp", nil)
	w.seed(inbox()...)
	ctx := t.Context()
	p := w.spec.Provider

	pg, err := p.List(ctx, w.a, provider.ListOptions{Limit: 10})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if pg.Folder != "INBOX" || pg.Total != 3 || len(pg.Messages) != 3 {
		t.Fatalf("page: %+v", pg)
	}
	want := []struct {
		uid                  uint32
		subject, name, addr  string
		seen, flagged, attch bool
	}{
		{3, "Build failed", "CI", "ci@example.com", false, false, false},
		{2, "Lunch?", "Ann Example", "ann@example.com", true, true, true},
		{1, "Invoice March", "Billing", "billing@example.com", false, false, false},
	}
	for i, wm := range want {
		m := pg.Messages[i]
		if m.ID != w.id("INBOX", wm.uid) || m.Subject != wm.subject || m.From.Name != wm.name || m.From.Address != wm.addr ||
			m.Seen != wm.seen || m.Flagged != wm.flagged || m.HasAttachments != wm.attch || m.Date.IsZero() {
			t.Errorf("message %d: %+v, want %+v", i, m, wm)
		}
	}

	unread, err := p.List(ctx, w.a, provider.ListOptions{UnreadOnly: true})
	if err != nil || len(unread.Messages) != 2 {
		t.Fatalf("unread: %v %+v", err, unread)
	}
	if !strings.Contains(strings.Join(w.lines("args"), " "), `"seen":false`) {
		t.Errorf("unread list did not ask the server for unseen mail: %v", w.lines("args"))
	}

	b, err := p.Get(ctx, w.a, w.id("INBOX", 3))
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if b.Subject != "Build failed" || b.From.Address != "ci@example.com" || len(b.To) != 1 ||
		b.Text != "See the log." || b.MessageID != "3@fixture" || b.Seen || !b.Date.Equal(inbox()[2].Date) {
		t.Fatalf("body: %+v", b)
	}
	if w.box().find("INBOX", 3).Seen {
		t.Fatal("opening a message marked it read")
	}

	found, err := p.Search(ctx, w.a, "INBOX", "invoice", 10, 0)
	if err != nil || len(found.Messages) != 1 || found.Messages[0].ID.UID != 1 {
		t.Fatalf("search: %v %+v", err, found)
	}
	arch, err := p.List(ctx, w.a, provider.ListOptions{Folder: "Archive"})
	if err != nil || len(arch.Messages) != 1 || arch.Messages[0].ID != w.id("Archive", 7) || arch.Messages[0].From.Address != "news@example.com" {
		t.Fatalf("archive list: %v %+v", err, arch)
	}

	fs, err := p.Folders(ctx, w.a)
	if err != nil || len(fs) != len(fxFolders) {
		t.Fatalf("folders: %v %+v", err, fs)
	}
	if fs[0] != (model.Folder{Name: "INBOX", Total: 3, Unread: 2}) || fs[1].SpecialUse != "archive" || fs[2].SpecialUse != "trash" {
		t.Fatalf("folders: %+v", fs)
	}
	if st := w.a.Status(); st.Dials != 1 || st.Connects != 1 {
		t.Fatalf("one child should serve it all: %+v", st)
	}
}

// Writes through email-mcp change the fixture's mailbox, one call per uid.
func TestEmailMCPWrites(t *testing.T) {
	w := newWorld(t, "email-mcp", nil)
	w.seed(inbox()...)
	ctx := t.Context()
	p := w.spec.Provider
	write := func(op model.Op, uids ...uint32) []model.ItemResult {
		t.Helper()
		res, err := p.Write(ctx, w.a, op, "INBOX", 0, uids)
		if err != nil {
			t.Fatalf("%s: %v", op.Verb(), err)
		}
		if len(res) != len(uids) {
			t.Fatalf("%s: %d results for %d uids", op.Verb(), len(res), len(uids))
		}
		return res
	}
	for _, r := range write(model.Op{Action: model.ActSetSeen, Value: true}, 1, 3) {
		if r.Kind != model.ResultDone {
			t.Fatalf("mark read: %+v", r)
		}
	}
	if b := w.box(); !b.find("INBOX", 1).Seen || !b.find("INBOX", 3).Seen || w.calls("mark_email") != 2 {
		t.Fatalf("mark read did not reach the mailbox (%d calls)", w.calls("mark_email"))
	}
	write(model.Op{Action: model.ActSetFlagged, Value: false}, 2)
	write(model.Op{Action: model.ActSetSeen, Value: false}, 2)
	if m := w.box().find("INBOX", 2); m.Flagged || m.Seen {
		t.Fatalf("unflag/unread: %+v", m)
	}
	write(model.Op{Action: model.ActArchive}, 1)
	write(model.Op{Action: model.ActTrash}, 2)
	write(model.Op{Action: model.ActMove, To: "Projects"}, 3)
	b := w.box()
	if len(b.in("INBOX")) != 0 || len(b.in("Archive")) != 2 || len(b.in("Trash")) != 1 || len(b.in("Projects")) != 1 {
		t.Fatalf("after archive/trash/move: %+v", b.Msgs)
	}

	// A server refusal is a failed item with the server's words.
	res := write(model.Op{Action: model.ActSetSeen, Value: true}, 42)
	if res[0].Kind != model.ResultFailed || !strings.Contains(res[0].Err, "not found") {
		t.Fatalf("write to a missing uid: %+v", res[0])
	}

	// Lookup: gone from INBOX; present in Archive with its flags.
	if _, ok, err := p.Lookup(ctx, w.a, "INBOX", 1); ok || err != nil {
		t.Fatalf("lookup of a moved message: %v %v", ok, err)
	}
	arch := b.in("Archive")[1]
	m, ok, err := p.Lookup(ctx, w.a, "Archive", arch.UID)
	if !ok || err != nil || !m.Seen || m.ID != w.id("Archive", arch.UID) {
		t.Fatalf("lookup in Archive: %+v %v %v", m, ok, err)
	}
	if _, ok, err := p.Find(ctx, w.a, model.Op{Action: model.ActArchive}, "1@fixture"); ok || !errors.Is(err, provider.ErrUnsupported) {
		t.Fatalf("find cannot search by Message-ID and must say so: %v %v", ok, err)
	}
}

// A garbage answer is a protocol error of this account; the session stays.
func TestGarbageAnswerIsProtocolError(t *testing.T) {
	w := newWorld(t, "email-mcp", nil)
	w.seed(inbox()...)
	w.set("garbage-list_emails", "", true)
	_, err := w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{})
	mustClass(t, err, conn.ClassProtocol)
	if !strings.Contains(err.Error(), "unreadable answer") {
		t.Fatalf("error: %v", err)
	}
	w.set("garbage-list_emails", "", false)
	if _, err := w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{}); err != nil {
		t.Fatalf("list after garbage: %v", err)
	}
	if st := w.a.Status(); st.Dials != 1 {
		t.Fatalf("a garbage answer must not cost the session: %+v", st)
	}
}

// A get answer without flags (the bare header block) sends Lookup to the
// listing for them: reconciling a flag change must never guess.
func TestLookupReadsFlagsFromListing(t *testing.T) {
	w := newWorld(t, "email-mcp", nil)
	w.seed(inbox()...)
	w.set("plain-get", "", true)
	p := w.spec.Provider
	b, err := p.Get(t.Context(), w.a, w.id("INBOX", 2))
	if err != nil || b.Subject != "Lunch?" || b.Text != "Noon at the usual place.\nAnn" {
		t.Fatalf("bare get: %v %+v", err, b)
	}
	m, ok, err := p.Lookup(t.Context(), w.a, "INBOX", 2)
	if err != nil || !ok || !m.Seen || !m.Flagged || w.calls("list_emails") != 1 {
		t.Fatalf("lookup: %+v %v %v (%d listings)", m, ok, err, w.calls("list_emails"))
	}
	m, ok, err = p.Lookup(t.Context(), w.a, "INBOX", 1)
	if err != nil || !ok || m.Seen {
		t.Fatalf("lookup of an unread message: %+v %v %v", m, ok, err)
	}
}
