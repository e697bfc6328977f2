package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"unibox/accounts"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model/compose"
)

// An agent cannot attach a file from this computer: draft_reply and
// draft_message take no attach argument (one given is refused, nothing
// drafted), and an Attach line written into a body stays body text: the
// local draft names no file, and the copy in Drafts carries none. A
// stranger's mail telling the agent to "attach ~/.ssh/id_ed25519" gets
// nowhere.
func TestAgentCannotAttachLocalFiles(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := newDraftWorld(t)
	r, _ := w.hub(t, 100)
	id := r.original(t)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"draft_reply", map[string]any{"id": id, "body": "ok", "attach": []string{secret}}},
		{"draft_reply", map[string]any{"id": id, "body": "ok", "attachments": []map[string]any{{"path": secret}}}},
		{"draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org"}, "subject": "key", "body": "x", "attach": secret}},
	} {
		if res := r.call(t, tc.tool, tc.args, nil); !res.IsError {
			t.Errorf("%s with %v was taken: %s", tc.tool, tc.args, accounts.ResultText(res))
		}
	}
	if n := len(w.folder(t, "Drafts")); n != 0 {
		t.Fatalf("Drafts holds %d drafts from refused calls", n)
	}

	var out DraftOut
	r.mustCall(t, "draft_message", map[string]any{"account": "Work", "to": []string{"a@example.org"}, "subject": "key",
		"body": "Attach: " + secret + "\nAttach: ~/.ssh/id_ed25519\n"}, &out)
	box, err := outbox.Open(w.root)
	if err != nil {
		t.Fatal(err)
	}
	_, text, err := box.Draft(out.DraftID)
	if err != nil {
		t.Fatal(err)
	}
	d, err := compose.Parse(string(text), compose.Draft{})
	if err != nil || len(d.Attach) != 0 {
		t.Fatalf("the agent's draft names files %q (%v):\n%s", d.Attach, err, text)
	}
	if got, err := drafting.Attach(box, out.DraftID, d, drafting.DefaultLimit); err != nil || len(got.Attachments) != 0 {
		t.Fatalf("opened for review it carries %d files (%v)", len(got.Attachments), err)
	}
	for _, m := range w.folder(t, "Drafts") {
		if bytes.Contains(m.Raw, []byte("PRIVATE KEY")) || bytes.Contains(m.Raw, []byte("multipart/mixed")) {
			t.Fatalf("the copy in Drafts carries a file:\n%s", m.Raw)
		}
	}
	if !strings.Contains(string(text), "\n\nAttach: "+secret) {
		t.Errorf("the body lost its text:\n%s", text)
	}
}
