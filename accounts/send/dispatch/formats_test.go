package dispatch_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/accounts/testservers/smtptest"
)

// The fixture testdata/before-move was written by the code of commit
// 93a69d8, before drafting and outbox moved under accounts/send (a test
// in that tree's accounts/drafting: an agent's draft filed as
// Writer.file files it, with its ledger record, and a person's draft
// queued as the TUI's y queues it). Its IDs are those it was given.
const (
	oldAgentDraft  = "REXM3R6AOXYWXQXPUCSABNYGRL"
	oldPersonDraft = "2AUXW5UNVPNDOPH6IMCYKJSHAG"
	oldEntry       = "NBW5VSJJZZWW4OEGFCTJ6GARWT"
)

// copyFixture copies the old tree into a fresh root (the runner writes).
func copyFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Chmod(root, 0o700); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("testdata", "before-move")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// The on-disk formats did not change in the move: the new code reads
// the old outbox entry and sends it once, byte for byte what the old
// code prepared, removing its draft when done; the old ledger still
// says the agent's draft is the agent's (and a person's is not).
func TestFormatsFromBeforeTheMove(t *testing.T) {
	root := copyFixture(t)
	wireWant, err := os.ReadFile(filepath.Join(root, "outbox", oldEntry+".wire"))
	if err != nil {
		t.Fatal(err)
	}
	box, err := outbox.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if w := box.Warning(); w != "" {
		t.Errorf("the old tree warns: %s", w)
	}

	w := drafting.NewWriter(box, -1)
	for _, tc := range []struct{ id, author string }{
		{oldAgentDraft, drafting.Agent},
		{oldPersonDraft, drafting.Person},
	} {
		d, text, err := box.Draft(tc.id)
		if err != nil {
			t.Fatalf("draft %s: %v", tc.id, err)
		}
		if got := w.Author(tc.id, text); got != tc.author {
			t.Errorf("draft %s: author %q, want %q", tc.id, got, tc.author)
		}
		if d.Account != "work" {
			t.Errorf("draft %s: account %q", tc.id, d.Account)
		}
	}
	if d, _, _ := box.Draft(oldAgentDraft); d.ServerDraft == nil || d.ServerDraft.UID != 3 || d.ServerDraft.Folder != "Drafts" {
		t.Errorf("the agent draft's copy in Drafts is lost: %+v", d.ServerDraft)
	}

	r := &rig{t: t, box: box}
	a := r.newAccount("work", smtptest.Options{}, dispatch.SentCopy{})
	run := dispatch.New(box, accts(a), dispatch.Options{})
	rep, err := run.Deliver(bounded(t), oldEntry)
	if err != nil || rep.Outcome != dispatch.OutcomeSent {
		t.Fatalf("old entry: %s, %v (entry %+v)", rep.Outcome, err, rep.Entry)
	}
	got := a.srv.Delivered()
	if len(got) != 1 || string(got[0].Data) != string(wireWant) {
		t.Fatalf("delivered %d messages; want the old wire bytes once", len(got))
	}
	if got[0].From != "ann@example.org" || len(got[0].Rcpt) != 1 || got[0].Rcpt[0] != "cy@example.org" {
		t.Errorf("envelope %s -> %v", got[0].From, got[0].Rcpt)
	}
	if _, there := r.onDisk(oldEntry); there {
		t.Error("the old entry is still in the outbox after it was sent")
	}
	if _, _, err := box.Draft(oldPersonDraft); err == nil {
		t.Error("the sent entry's draft is still there")
	}
	if _, _, err := box.Draft(oldAgentDraft); err != nil {
		t.Errorf("the agent's draft went with it: %v", err)
	}
}
