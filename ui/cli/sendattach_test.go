package cli_test

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/emersion/go-message/mail"

	"unibox/accounts/send/outbox"
	"unibox/ui/facetest"
)

// attachments is a delivered message's top type and files by name.
func attachments(t *testing.T, raw []byte) (string, map[string][]byte) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	top, _, _ := r.Header.ContentType()
	files := map[string][]byte{}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return top, files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*mail.AttachmentHeader); ok {
			name, _ := h.Filename()
			files[name], _ = io.ReadAll(p.Body)
		}
	}
}

// `unibox send --attach` (repeatable) wraps the script's message in
// multipart/mixed with each file, delivered once through a real SMTP
// server into a real INBOX, the text kept as the first part.
func TestSendAttach(t *testing.T) {
	srv, smtp := sendWorld(t)
	cfg := sendConfig(t, srv, smtp.Port(), "")
	dir := t.TempDir()
	pdf := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte{0, 0xff}, 5000)...)
	for name, data := range map[string][]byte{"q3.pdf": pdf, "notes.txt": []byte("notes\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code, stderr := runSend(t, toBob, "--config", cfg, "--account", "Work",
		"--attach", filepath.Join(dir, "q3.pdf"), "--attach", filepath.Join(dir, "notes.txt"))
	if code != 0 || out.Outcome != "sent" {
		t.Fatalf("exit %d %+v\n%s", code, out, stderr)
	}
	bob := withID(facetest.Folder(t, srv, "bob", "bobpw", "INBOX"), out.MessageID)
	if len(bob) != 1 || smtp.Deliveries() != 1 {
		t.Fatalf("bob %d, deliveries %d: want 1", len(bob), smtp.Deliveries())
	}
	top, files := attachments(t, bob[0].Raw)
	if top != "multipart/mixed" || !bytes.Equal(files["q3.pdf"], pdf) || string(files["notes.txt"]) != "notes\n" ||
		!bytes.Contains(bob[0].Raw, []byte("Tomorrow at noon?")) {
		t.Errorf("top %s, files %v:\n%.400s", top, len(files), bob[0].Raw)
	}
}

// What --attach refuses exits 2 before anything is queued or sent,
// naming the file: not a regular file (a folder, a FIFO, a socket,
// /dev/zero), missing, a signed message, and a message over the SIZE the
// account's server last announced (as the outbox remembers it).
func TestSendAttachRefuses(t *testing.T) {
	srv, smtp := sendWorld(t)
	cfg := sendConfig(t, srv, smtp.Port(), "")
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
	small := filepath.Join(dir, "small.bin")
	if err := os.WriteFile(small, bytes.Repeat([]byte{1}, 6<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	signed := "To: bob@example.com\r\nContent-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=s\r\n\r\n--s\r\n\r\nhi\r\n--s--\r\n"
	for _, tc := range []struct {
		name, msg string
		attach    []string
		size      int64 // remembered SIZE, when > 0
		says      string
	}{
		{"folder", toBob, []string{dir}, 0, "--attach " + dir + ": not a regular file: it is a folder"},
		{"fifo", toBob, []string{fifo}, 0, "it is a FIFO"},
		{"socket", toBob, []string{sock}, 0, "it is a socket"},
		{"dev zero", toBob, []string{"/dev/zero"}, 0, "it is a character device"},
		{"missing", toBob, []string{filepath.Join(dir, "gone.pdf")}, 0, "gone.pdf: no such file or directory"},
		{"signed", signed, []string{small}, 0, "signed or encrypted"},
		{"over the SIZE", toBob, []string{small, small}, 12 << 10, "over the 12 kB the account's server takes (its SMTP SIZE)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.size > 0 {
				b, err := outbox.Open(filepath.Join(os.Getenv("XDG_DATA_HOME"), "unibox"))
				if err != nil || b.NoteSMTPSize("Work", tc.size) != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--config", cfg, "--account", "Work"}
			for _, a := range tc.attach {
				args = append(args, "--attach", a)
			}
			out, code, stderr := runSend(t, tc.msg, args...)
			if code != 2 || !strings.Contains(out.Error, tc.says) || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, error %q, stderr %q: want 2 saying %q", code, out.Error, stderr, tc.says)
			}
			if smtp.MailCommands() != 0 || len(outboxEntries(t)) != 0 {
				t.Errorf("%d MAIL commands, %d in the outbox: want nothing sent or queued", smtp.MailCommands(), len(outboxEntries(t)))
			}
		})
	}
}
