package compose

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/emersion/go-message/mail"
)

// readMixed reads a wrapped message: its top Content-Type, its first
// part's Content-Type and bytes, and its attachments by name.
func readMixed(t *testing.T, raw []byte) (top, firstType string, first []byte, files map[string][]byte) {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	top, _, _ = r.Header.ContentType()
	files = map[string][]byte{}
	for i := 0; ; i++ {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *mail.AttachmentHeader:
			name, _ := h.Filename()
			files[name] = data
		case *mail.InlineHeader:
			if i == 0 {
				firstType, _, _ = h.ContentType()
				first = data
			}
		}
	}
	return top, firstType, first, files
}

// A script's message is wrapped in multipart/mixed: its own content (a
// plain text, or a whole multipart/alternative) the first part, the
// files after it; its other headers stay on top, each once.
func TestWrapMixed(t *testing.T) {
	pdf := []byte("%PDF-1.4 \x00\xff binary")
	for _, tc := range []struct {
		name, msg, firstType, firstHas string
	}{
		{"plain LF text", "To: b@example.com\nSubject: hi\n\nSee the file.\n", "", "See the file."},
		{"quoted-printable", "To: b@example.com\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nCaf=C3=A9\r\n", "text/plain", "Café"},
		{"alternative", "To: b@example.com\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n--alt\r\nContent-Type: text/plain\r\n\r\nplain\r\n--alt\r\nContent-Type: text/html\r\n\r\n<p>html</p>\r\n--alt--\r\n", "text/plain", "plain"}, // the reader walks into the alternative
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := WrapMixed([]byte(tc.msg), []Part{{Name: "q3.pdf", Type: "application/pdf", Data: pdf}, {Name: "b.txt", Type: "text/plain", Data: []byte("b")}})
			if err != nil {
				t.Fatal(err)
			}
			top, ft, first, files := readMixed(t, out)
			if top != "multipart/mixed" || !bytes.Equal(files["q3.pdf"], pdf) || string(files["b.txt"]) != "b" {
				t.Fatalf("top %s, files %q:\n%s", top, files, out)
			}
			if tc.firstType != "" && ft != tc.firstType {
				t.Errorf("first part %s, want %s", ft, tc.firstType)
			}
			if !strings.Contains(string(first), tc.firstHas) {
				t.Errorf("first part %q lacks %q", first, tc.firstHas)
			}
			if n := bytes.Count(out, []byte("MIME-Version:")); n != 1 || bytes.Count(out, []byte("To: b@example.com")) != 1 {
				t.Errorf("MIME-Version %d times, or To lost:\n%s", n, out)
			}
			if tc.name == "alternative" && !bytes.Contains(out, []byte("--alt\r\nContent-Type: text/html\r\n\r\n<p>html</p>\r\n--alt--")) {
				t.Errorf("the alternative was not kept byte for byte:\n%s", out)
			}
		})
	}
}

// A signed or encrypted message is refused: its signature would not
// cover what is sent.
func TestWrapMixedRefusesSealed(t *testing.T) {
	for _, ct := range []string{
		`multipart/signed; protocol="application/pgp-signature"; boundary=x`,
		`Multipart/Encrypted; protocol="application/pgp-encrypted"; boundary=x`,
		`application/pkcs7-mime; smime-type=enveloped-data`,
	} {
		msg := "To: b@example.com\r\nContent-Type: " + ct + "\r\n\r\n--x\r\n"
		if _, err := WrapMixed([]byte(msg), []Part{{Name: "a", Data: []byte("a")}}); !errors.Is(err, ErrSealed) {
			t.Errorf("%s: err = %v, want ErrSealed", ct, err)
		}
	}
	same, err := WrapMixed([]byte("To: b@example.com\r\n\r\nx\r\n"), nil)
	if err != nil || string(same) != "To: b@example.com\r\n\r\nx\r\n" {
		t.Errorf("no parts: %q, %v; want the message as it was", same, err)
	}
}
