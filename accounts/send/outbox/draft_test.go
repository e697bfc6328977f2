package outbox

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A draft is on disk when NewDraft returns, at the Path the editor is
// given; edits and postponing keep it; only DiscardDraft removes it.
func TestDraftLifecycle(t *testing.T) {
	b := openBox(t)
	orig := &Ref{Account: "work", Folder: "INBOX", UIDValidity: 3, UID: 9, MessageID: "<a@x>"}
	first, err := b.NewDraft("work", "reply", orig, []byte("first"))
	if err != nil {
		t.Fatal(err)
	}
	if text, err := os.ReadFile(first.Path); err != nil || string(text) != "first" {
		t.Fatalf("the editor's file: %q %v", text, err)
	}
	second, err := b.NewDraft("home", "new", nil, []byte("second"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(first.Path, []byte("edited in the editor"), 0o600)
	if err := b.SaveDraft(first, []byte("edited")); err != nil {
		t.Fatal(err)
	}
	first.ServerUID = 77
	if err := b.SaveDraft(first, nil); err != nil { // postponed: the text stays
		t.Fatal(err)
	}
	list, err := b.Drafts()
	if err != nil || len(list) != 2 || list[0].ID != first.ID || list[1].ID != second.ID {
		t.Fatalf("drafts, newest first: %+v %v", list, err)
	}
	d, text, err := b.Draft(first.ID)
	if err != nil || string(text) != "edited" || d.ServerUID != 77 || *d.Original != *orig || d.Kind != "reply" || d.Path != first.Path {
		t.Fatalf("draft %+v %q %v", d, text, err)
	}
	if err := b.DiscardDraft(first.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Draft(first.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a discarded draft: %v", err)
	}
	if err := b.DiscardDraft(first.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("discarding twice: %v", err)
	}
}

// Input that could name another file, or a draft that could not be
// sent, is refused naming the field.
func TestDraftBadInput(t *testing.T) {
	b := openBox(t)
	for _, tt := range []struct {
		name, field string
		err         func() error
	}{
		{"no account", "account", func() error { _, err := b.NewDraft("", "new", nil, nil); return err }},
		{"unknown kind", `kind "resend"`, func() error { _, err := b.NewDraft("work", "resend", nil, nil); return err }},
		{"a path for an id", `id "../outbox/x"`, func() error { _, _, err := b.Draft("../outbox/x"); return err }},
		{"an empty id", `id ""`, func() error { return b.DiscardDraft("") }},
		{"saving a draft that is gone", "not found", func() error {
			return b.SaveDraft(Draft{ID: "GONE", Account: "work", Kind: "new"}, nil)
		}},
	} {
		err := tt.err()
		if err == nil || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: %v, want an error naming %s", tt.name, err, tt.field)
		}
	}
}

// A draft whose JSON is damaged, or lost (a crash between the text and
// the JSON), is listed with its error and its text, never dropped; a
// save mends it.
func TestDamagedDraftIsListed(t *testing.T) {
	b := openBox(t)
	garbled, err := b.NewDraft("work", "new", nil, []byte("garbled json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(b.drafts, garbled.ID+".json"), []byte(`{"id": "`), 0o600)
	lost, err := b.NewDraft("work", "new", nil, []byte("lost json"))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(b.drafts, lost.ID+".json"))
	textless, err := b.NewDraft("work", "new", nil, []byte("gone"))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(textless.Path)
	list, err := b.Drafts()
	if err != nil || len(list) != 3 {
		t.Fatalf("drafts %+v %v", list, err)
	}
	for _, d := range list {
		if d.ID == textless.ID {
			if _, _, err := b.Draft(d.ID); !errors.Is(d.Err, ErrDamaged) || !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "its text is missing") {
				t.Errorf("a draft without its text: listed %v, read %v", d.Err, err)
			}
			continue
		}
		if !errors.Is(d.Err, ErrDamaged) || d.Updated.IsZero() {
			t.Errorf("draft %s: Err %v, dated %v", d.ID, d.Err, d.Updated)
		}
		_, text, err := b.Draft(d.ID)
		if !errors.Is(err, ErrDamaged) || !bytes.HasSuffix(text, []byte("json")) {
			t.Errorf("draft %s: %q %v: want its text with ErrDamaged", d.ID, text, err)
		}
	}
	if err := b.SaveDraft(Draft{ID: lost.ID, Account: "work", Kind: "new"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, text, err := b.Draft(lost.ID); err != nil || string(text) != "lost json" {
		t.Fatalf("mended: %q %v", text, err)
	}
}

// A draft's file is the editor's: LF line ends whatever text it is given
// (NewDraft, SaveDraft), and the copy for Sent of a `send --queue` entry
// taken back into a draft (wire bytes, CRLF) too; vi showed it as [dos]
// (issue 37, item 13).
func TestDraftTextIsLF(t *testing.T) {
	b := openBox(t)
	crlf := []byte("From: sam@example.org\r\nTo: bob@example.org\r\nSubject: x\r\n\r\none\r\ntwo\r\n")
	lf := "From: sam@example.org\nTo: bob@example.org\nSubject: x\n\none\ntwo\n"
	read := func(d Draft) string {
		t.Helper()
		data, err := os.ReadFile(d.Path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	d, err := b.NewDraft("work", "new", nil, crlf)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(d); got != lf {
		t.Fatalf("NewDraft wrote %q, want %q", got, lf)
	}
	if err := b.SaveDraft(d, append(crlf, "three\r\n"...)); err != nil {
		t.Fatal(err)
	}
	if got := read(d); got != lf+"three\n" {
		t.Fatalf("SaveDraft wrote %q", got)
	}
	e, err := b.Enqueue(Entry{Account: "work", MessageID: "<q@example.org>", From: "sam@example.org", Rcpt: []string{"bob@example.org"},
		SendAt: time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)}, crlf, crlf)
	if err != nil {
		t.Fatal(err)
	}
	e, err = b.Cancel(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := b.Draft(e.DraftID)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(back); got != lf {
		t.Fatalf("the entry taken back is a draft of %q, want %q", got, lf)
	}
}
