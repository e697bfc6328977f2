package accounts

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/attach"
	"unibox/model/runnable"
)

// hostileMail attaches each content under its name, the name written as
// RFC 2231 (UTF-8, percent-encoded) so that any byte reaches the parser;
// "" is a part with no name at all.
func hostileMail(names []string, contents [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString("From: mallory@example.org\r\nTo: sam@example.org\r\nSubject: files\r\nDate: " + time.Now().Format(time.RFC1123Z) + "\r\n")
	b.WriteString("Message-ID: <hostile@unibox.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n")
	for i, name := range names {
		disp := "attachment"
		if name != "" {
			disp += "; filename*=utf-8''" + strings.ReplaceAll(url.PathEscape(name), "+", "%2B")
		}
		fmt.Fprintf(&b, "--B\r\nContent-Type: application/pdf\r\nContent-Disposition: %s\r\nContent-Transfer-Encoding: base64\r\n\r\n%s\r\n", disp, base64.StdEncoding.EncodeToString(contents[i]))
	}
	b.WriteString("--B--\r\n")
	return b.Bytes()
}

// Hostile attachment names save safely inside download_dir and nowhere
// else, through the real serve-imap child: a right-to-left override, a
// path out of the folder, 300 bytes, no name; a second save of the same
// name is numbered, never written over; no staging folder is left.
func TestSaveHostileNames(t *testing.T) {
	ctx := context.Background()
	a, srv := sentAccount(t, nil)
	names := []string{"invoice\u202Efdp.exe", "../../x", "/etc/passwd", strings.Repeat("n", 300) + ".pdf", "", ".bashrc"}
	want := []string{"invoicefdp.exe", "_._x", "_etc_passwd", strings.Repeat("n", 196) + ".pdf", "attachment", "bashrc"}
	var contents [][]byte
	for i := range names {
		contents = append(contents, bytes.Repeat([]byte{byte(i), 0, 255}, 1000+i))
	}
	if _, err := srv.Append("sam", "INBOX", hostileMail(names, contents), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	id := count(t, a, "INBOX")[0].ID
	body, err := a.Get(ctx, id)
	if err != nil || len(body.Attachments) != len(names) {
		t.Fatalf("body: %v, %d attachments", err, len(body.Attachments))
	}
	root := t.TempDir()
	dl := filepath.Join(root, "Downloads")
	for i, at := range body.Attachments {
		path, err := attach.Save(ctx, a, id, i, at.Name, dl)
		if err != nil || path != filepath.Join(dl, want[i]) {
			t.Fatalf("attachment %d (%q): saved as %q, %v; want %s", i, at.Name, path, err, want[i])
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, contents[i]) {
			t.Fatalf("attachment %d: %d bytes saved, want %d byte-exact", i, len(got), len(contents[i]))
		}
	}
	again, err := attach.Save(ctx, a, id, 1, body.Attachments[1].Name, dl)
	if err != nil || again != filepath.Join(dl, "_ (1)._x") {
		t.Fatalf("second save of ../../x: %q, %v", again, err)
	}
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != root && p != dl {
			files = append(files, p)
			if filepath.Dir(p) != dl || d.IsDir() {
				t.Errorf("%s: outside download_dir, or a folder left behind", p)
			}
		}
		return nil
	})
	if len(files) != len(names)+1 {
		t.Fatalf("files under the test root: %q", files)
	}
}

// enter opens through a private folder with open_cmd, and refuses what
// would run (by name before fetching, by content after), whatever the
// mail declares (every part here says application/pdf); Close removes
// every opened file.
func TestOpenAttachment(t *testing.T) {
	ctx := context.Background()
	a, srv := sentAccount(t, nil)
	names := []string{"notes.txt", "report.pdf", "tool.exe", "launch.pdf", "script.pdf"}
	contents := [][]byte{[]byte("plain notes"), []byte("\x7fELF\x02\x01\x01 binary"), []byte("MZ"), []byte("[Desktop Entry]\nExec=rm -rf ~\n"), []byte("#!/bin/sh\nrm -rf ~\n")}
	if _, err := srv.Append("sam", "INBOX", hostileMail(names, contents), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	id := count(t, a, "INBOX")[0].ID
	out := filepath.Join(t.TempDir(), "opened")
	o := &attach.Opener{Cmd: []string{"sh", "-c", `cat "$1" > "$0"; stat -c %a "$1" > "$0.mode"; stat -c %a "$(dirname "$1")" >> "$0.mode"`, out}, Wait: time.Minute}
	path, err := o.Open(ctx, a, id, 0, names[0])
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	modes, _ := os.ReadFile(out + ".mode")
	if string(got) != "plain notes" || string(modes) != "600\n700\n" || filepath.Base(path) != "notes.txt" {
		t.Fatalf("open_cmd saw %q with modes %q at %s", got, modes, path)
	}
	os.Remove(out)
	for i := 1; i < len(names); i++ {
		_, err := o.Open(ctx, a, id, i, names[i])
		var r *runnable.Refused
		if !errors.As(err, &r) {
			t.Fatalf("%s: %v, want a refusal", names[i], err)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Fatalf("%s: refused (%v), but open_cmd ran", names[i], err)
		}
		t.Logf("%s: %v", names[i], err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(filepath.Dir(path))); !os.IsNotExist(err) {
		t.Fatalf("the private folder is still there after Close: %v", err)
	}
}
