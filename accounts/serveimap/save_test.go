package serveimap

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
)

// save_part writes an attachment byte for byte into a new 0600 file in
// the private folder it is given, and refuses every other place: a
// folder others may enter, a name with a path in it, a relative folder,
// a symlink, an existing file (left as it was). A failed save leaves no
// file behind.
func TestSavePart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{MaxPartBytes: 4096})
		bin := make([]byte, 3000)
		for i := range bin {
			bin[i] = byte(i * 7)
		}
		txt := "a = b\r\nline two"
		uid := b.Seed(t, user, "INBOX", attachmentMail(bin, txt))
		dir := filepath.Join(t.TempDir(), "private")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for i, want := range [][]byte{bin, []byte(txt)} {
			var out imapwire.SavePartOut
			name := []string{"all.bin", "notes.txt"}[i]
			mustOK(t, "save_part", call(t, cs, "save_part", imapwire.SavePartIn{Account: "work", UID: uid, Index: i, Dir: dir, Name: name}, &out))
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || !bytes.Equal(got, want) || out.Size != int64(len(want)) || out.Name != name || out.Path != filepath.Join(dir, name) {
				t.Fatalf("part %d: %v, %d bytes written, %+v", i, err, len(got), out)
			}
			if fi, _ := os.Stat(out.Path); fi.Mode().Perm() != 0o600 {
				t.Fatalf("part %d saved with mode %04o, want 0600", i, fi.Mode().Perm())
			}
		}
		open := filepath.Join(t.TempDir(), "open")
		os.Mkdir(open, 0o755)
		os.Chmod(open, 0o755)
		link := filepath.Join(t.TempDir(), "link")
		os.Symlink(dir, link)
		for _, tc := range []struct{ dir, name, why string }{
			{open, "x.bin", "not private"},
			{dir, "../x.bin", "not one file name"},
			{dir, "sub/x.bin", "not one file name"},
			{dir, "..", "not one file name"},
			{dir, "", "not one file name"},
			{"relative", "x.bin", "not an absolute path"},
			{link, "x.bin", "not a folder"},
			{dir, "all.bin", "already exists"},
		} {
			res := call(t, cs, "save_part", imapwire.SavePartIn{Account: "work", UID: uid, Index: 0, Dir: tc.dir, Name: tc.name}, nil)
			mustClass(t, "save_part "+tc.why, res, conn.ClassTool)
			if !strings.Contains(conn.ResultText(res), tc.why) {
				t.Errorf("save_part into %s/%s: %s, want %q", tc.dir, tc.name, conn.ResultText(res), tc.why)
			}
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "all.bin")); !bytes.Equal(got, bin) {
			t.Fatal("an existing file was changed")
		}
		if ents, _ := os.ReadDir(open); len(ents) != 0 {
			t.Fatalf("a refused save wrote into the open folder: %v", ents)
		}
		big := b.Seed(t, user, "INBOX", attachmentMail(make([]byte, 5000), txt))
		for _, in := range []imapwire.SavePartIn{
			{Account: "work", UID: big, Index: 0, Dir: dir, Name: "big.bin"},  // over MaxPartBytes
			{Account: "work", UID: big, Index: 7, Dir: dir, Name: "none.bin"}, // no such part
		} {
			res := call(t, cs, "save_part", in, nil)
			mustClass(t, "save_part", res, conn.ClassTool)
			if _, err := os.Stat(filepath.Join(dir, in.Name)); !os.IsNotExist(err) {
				t.Fatalf("a failed save (%s) left %s behind: %v", conn.ResultText(res), in.Name, err)
			}
		}
	})
}
