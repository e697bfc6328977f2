package outbox

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// A draft's copies live in a folder beside it that the drafts listing
// never takes for a draft; a copy that reads past its bound (a file
// growing while copied) is refused and nothing is kept; a folder whose
// draft is gone (a crash mid-discard) is cleared at the next Open.
func TestDraftFiles(t *testing.T) {
	b := openBox(t)
	d, err := b.NewDraft("work", "new", nil, []byte("To: b@example.org\n\nhi\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.KeepFile(d.ID, "~/a.txt", strings.NewReader("12345"), 5)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "12345" {
		t.Errorf("copy holds %q", got)
	}
	if _, err := b.KeepFile(d.ID, "~/b.txt", strings.NewReader("123456"), 5); !errors.Is(err, ErrInvalid) {
		t.Errorf("a copy past its bound: err = %v, want ErrInvalid", err)
	}
	if _, ok := b.KeptFile(d.ID, "~/b.txt"); ok {
		t.Error("a copy past its bound was kept")
	}
	ds, err := b.Drafts()
	if err != nil || len(ds) != 1 || ds[0].Err != nil {
		t.Fatalf("drafts = %+v, %v: want the one draft, its files folder not listed", ds, err)
	}

	// A crash after the text went and before the files did.
	if err := removeAll(b.drafts, d.ID+draftMeta, d.ID+draftText); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(b.root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b.filesDir(d.ID)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an orphaned files folder survived Open: %v", err)
	}
}
