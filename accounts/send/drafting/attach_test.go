package drafting

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// attachBox is an outbox with one draft, for the attach tests.
func attachBox(t *testing.T) (*outbox.Box, outbox.Draft) {
	t.Helper()
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dr, err := box.NewDraft("Work", "new", nil, []byte("To: b@example.com\n\nhi\n"))
	if err != nil {
		t.Fatal(err)
	}
	return box, dr
}

// within runs f, failing the test if it has not returned in a generous
// bound: a FIFO opened for reading would block for ever.
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return: it blocked on the file", what)
		panic("unreachable")
	}
}

// Only a regular file is attached: a folder, a FIFO (whose open would
// wait for a writer), a socket and /dev/zero (which never ends) are
// refused at once, saying what they are; a missing path says so; a file
// too big to go is refused on its size before a byte is copied (a
// sparse 1 GB file is not read). Nothing is kept for any of them.
func TestAttachRefusesWhatCannotGo(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	sparse := filepath.Join(dir, "huge.iso")
	if f, err := os.Create(sparse); err != nil || f.Truncate(1<<30) != nil || f.Close() != nil {
		t.Fatalf("sparse file: %v", err)
	}
	for _, tc := range []struct {
		name, path string
		want       error
		says       string
	}{
		{"folder", dir, ErrNotRegular, "a folder"},
		{"fifo", fifo, ErrNotRegular, "a FIFO"},
		{"socket", sock, ErrNotRegular, "a socket"},
		{"dev zero", "/dev/zero", ErrNotRegular, "a character device"},
		{"missing", filepath.Join(dir, "nope.pdf"), fs.ErrNotExist, "no such file"},
		{"too big", sparse, ErrTooBig, "1024.0 MB, 1401.3 MB once encoded for mail, over the 25.0 MB taken as the limit until the account's server says"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			box, dr := attachBox(t)
			err := within(t, "AttachFile", func() error {
				_, err := AttachFile(box, dr.ID, tc.path, DefaultLimit)
				return err
			})
			var ae *AttachError
			if !errors.As(err, &ae) || ae.Path != tc.path || !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want an *AttachError naming %s: %v", err, tc.path, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "Attach: "+tc.path+": ") || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("err = %q, want it to name the line and say %q", err, tc.says)
			}
			if _, ok := box.KeptFile(dr.ID, tc.path); ok {
				t.Error("a copy was kept of a file that was refused")
			}
		})
	}
}

// The open file is checked again, without blocking: a path that was a
// regular file when looked at and is a FIFO when opened (swapped in
// between) is refused, not waited on.
func TestOpenCheckedDoesNotBlockOnAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	err := within(t, "openChecked", func() error {
		f, _, err := openChecked(fifo, Limit{})
		if f != nil {
			f.Close()
		}
		return err
	})
	if !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v, want ErrNotRegular", err)
	}
}

// A file is copied into the draft's folder (0600, in a 0700 folder) when
// attached, with ~ expanded: what is reviewed is what is sent, even when
// the file changes or goes away later. The part is named by the file,
// typed by its content (not its name) and keeps the path as written. A
// line deleted from the draft loses its copy; written again, the file
// is read afresh.
func TestAttachCopiesWhenAttached(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 100)...)
	if err := os.WriteFile(filepath.Join(home, "notes.pdf"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	box, dr := attachBox(t)
	d := compose.Draft{To: []model.Address{{Address: "b@example.com"}}, Attach: []string{"~/notes.pdf"}}
	got, err := Attach(box, dr.ID, d, DefaultLimit)
	if err != nil {
		t.Fatal(err)
	}
	want := compose.Part{Name: "notes.pdf", Type: "image/png", Data: png, Path: "~/notes.pdf"}
	if len(got.Attachments) != 1 || !equalPart(got.Attachments[0], want) {
		t.Fatalf("parts = %+v, want %+v", got.Attachments, want)
	}
	copyPath, ok := box.KeptFile(dr.ID, "~/notes.pdf")
	if !ok {
		t.Fatal("no copy kept")
	}
	for p, mode := range map[string]os.FileMode{copyPath: 0o600, filepath.Dir(copyPath): 0o700 | fs.ModeDir} {
		if info, err := os.Stat(p); err != nil || info.Mode() != mode {
			t.Errorf("%s: mode %v (%v), want %v", p, info.Mode(), err, mode)
		}
	}

	if err := os.WriteFile(filepath.Join(home, "notes.pdf"), []byte("changed since"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Attach(box, dr.ID, d, DefaultLimit)
	if err != nil || !bytes.Equal(again.Attachments[0].Data, png) {
		t.Fatalf("after the file changed: %v, data %q: want the copy made when attached", err, again.Attachments[0].Data)
	}

	if _, err := Attach(box, dr.ID, compose.Draft{}, DefaultLimit); err != nil {
		t.Fatal(err)
	}
	if _, ok := box.KeptFile(dr.ID, "~/notes.pdf"); ok {
		t.Error("the copy outlived its Attach line")
	}
	fresh, err := Attach(box, dr.ID, d, DefaultLimit)
	if err != nil || string(fresh.Attachments[0].Data) != "changed since" {
		t.Fatalf("written again: %v, data %q: want the file read afresh", err, fresh.Attachments[0].Data)
	}
	if err := box.DiscardDraft(dr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(copyPath)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the draft's files outlived it: %v", err)
	}
}

func equalPart(a, b compose.Part) bool {
	return a.Name == b.Name && a.Type == b.Type && a.Path == b.Path && bytes.Equal(a.Data, b.Data)
}

// A line whose file cannot be attached costs only that line: the other
// files are attached, the forward's parts kept, and the error names the
// line that failed.
func TestAttachKeepsTheRestOfTheDraft(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	if err := os.WriteFile(good, []byte("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "gone.txt")
	box, dr := attachBox(t)
	fwd := compose.Part{Name: "fwd.bin", Type: "application/octet-stream", Data: []byte{1}}
	d := compose.Draft{Attachments: []compose.Part{fwd}, Attach: []string{missing, good}}
	got, err := Attach(box, dr.ID, d, DefaultLimit)
	var ae *AttachError
	if !errors.As(err, &ae) || ae.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want the missing line named", err)
	}
	if len(got.Attachments) != 2 || got.Attachments[0].Name != "fwd.bin" || got.Attachments[1].Name != "good.txt" {
		t.Errorf("parts = %+v: want the forward's and good.txt", got.Attachments)
	}
	if len(got.Attach) != 2 {
		t.Errorf("Attach = %q: the lines are the person's, kept as written", got.Attach)
	}
}

// The type comes from the content: a PDF named .txt is a PDF, text that
// is not UTF-8 claims no charset, and what sniffing cannot tell is
// application/octet-stream.
func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{[]byte("%PDF-1.7\n..."), "application/pdf"},
		{[]byte("plain words\n"), "text/plain; charset=utf-8"},
		{[]byte("caf\xe9 cr\xe8me\n"), "text/plain"},
		{[]byte{0, 1, 2, 3, 0xfe}, "application/octet-stream"},
	} {
		if got := Sniff(tc.data); got != tc.want {
			t.Errorf("Sniff(%q) = %q, want %q", tc.data, got, tc.want)
		}
	}
}

// A message over the limit as it will go (its attachments base64) is
// refused; within it, and with no limit, it passes.
func TestFits(t *testing.T) {
	d := compose.Draft{From: model.Address{Address: "a@example.org"}, To: []model.Address{{Address: "b@example.com"}},
		Attachments: []compose.Part{{Name: "x.bin", Type: "application/octet-stream", Data: bytes.Repeat([]byte{0xff}, 300<<10)}}}
	if err := Fits(d, Limit{Bytes: 400 << 10, Known: true}); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "over the 400 kB the account's server takes (its SMTP SIZE)") {
		t.Errorf("300 kB (about 405 kB encoded) against 400 kB: err = %v, want ErrTooBig", err)
	}
	for _, limit := range []Limit{{Bytes: 500 << 10}, {Known: true}} {
		if err := Fits(d, limit); err != nil {
			t.Errorf("limit %+v: %v", limit, err)
		}
	}
}
