package serveimap

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
)

// What a reply and a forward read of the original: the answer fields of
// get_message, and an attachment's bytes (get_part).

// attachmentMail is a message with a text body and two attachments whose
// bytes cover every value (base64) and a text file (quoted-printable).
func attachmentMail(bin []byte, txt string) []byte {
	var b bytes.Buffer
	b.WriteString("From: ann@example.org\r\nTo: me@example.org\r\nSubject: files\r\nMessage-ID: <files@unibox.test>\r\nMIME-Version: 1.0\r\n")
	b.WriteString("Content-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n")
	b.WriteString("--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"all.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	enc := base64Lines(bin)
	b.WriteString(enc)
	b.WriteString("--B\r\nContent-Type: text/plain; name=\"notes.txt\"\r\nContent-Disposition: attachment; filename=\"notes.txt\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
	b.WriteString(strings.ReplaceAll(txt, "=", "=3D") + "\r\n--B--\r\n")
	return b.Bytes()
}

// get_part gives an attachment's decoded bytes, byte for byte, by its
// index in get_message's list; a bad index or one over the limit is
// refused, saying why.
func TestGetPart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{MaxPartBytes: 4096})
		bin := make([]byte, 3000)
		for i := range bin {
			bin[i] = byte(i * 7)
		}
		txt := "a = b\r\nline two"
		uid := b.Seed(t, user, "INBOX", attachmentMail(bin, txt))
		var msg imapwire.GetMessageOut
		mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uid}, &msg))
		if len(msg.Attachments) != 2 || msg.Attachments[0].Name != "all.bin" || msg.Attachments[1].Name != "notes.txt" {
			t.Fatalf("attachments: %s", pretty(msg.Attachments))
		}
		for i, want := range [][]byte{bin, []byte(txt)} {
			var out imapwire.GetPartOut
			mustOK(t, "get_part", call(t, cs, "get_part", imapwire.GetPartIn{Account: "work", UID: uid, Index: i}, &out))
			if !bytes.Equal(out.Data, want) || out.Name != msg.Attachments[i].Name || out.Type != msg.Attachments[i].Type || out.Size != int64(len(want)) || out.UIDValidity != msg.UIDValidity {
				t.Fatalf("part %d: %q %s %d bytes, want %q %s %d bytes", i, out.Name, out.Type, len(out.Data), msg.Attachments[i].Name, msg.Attachments[i].Type, len(want))
			}
		}
		for _, idx := range []int{2, -1} {
			res := call(t, cs, "get_part", imapwire.GetPartIn{Account: "work", UID: uid, Index: idx}, nil)
			mustClass(t, "get_part bad index", res, conn.ClassTool)
			if !strings.Contains(conn.ResultText(res), "index") {
				t.Fatalf("bad index %d: %s", idx, conn.ResultText(res))
			}
		}
		big := b.Seed(t, user, "INBOX", attachmentMail(make([]byte, 5000), txt))
		res := call(t, cs, "get_part", imapwire.GetPartIn{Account: "work", UID: big, Index: 0}, nil)
		mustClass(t, "get_part over the limit", res, conn.ClassTool)
		if !strings.Contains(conn.ResultText(res), "over the limit of 4096 bytes") {
			t.Fatalf("over the limit: %s", conn.ResultText(res))
		}
	})
}

// get_message gives what an answer needs; the ids are raw and clean.
func TestGetMessageAnswerFields(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		raw := imaptest.Mail{From: "Ann <ann@example.org>", To: "me@example.org", Subject: "question", Date: time.Now(), MessageID: "q.2@example.org",
			Headers: map[string]string{
				"Reply-To":    "List <list@example.org>",
				"Cc":          "Bo <bo@example.org>, cy@example.org",
				"In-Reply-To": "<q.1@example.org>",
				"References":  "<root@example.org> (a comment) <q.1@example.org>",
			}, Body: "?"}.Bytes()
		uid := b.Seed(t, user, "INBOX", raw)
		var out imapwire.GetMessageOut
		mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uid}, &out))
		if len(out.ReplyTo) != 1 || out.ReplyTo[0] != (imapwire.Address{Name: "List", Address: "list@example.org"}) {
			t.Errorf("reply_to %+v", out.ReplyTo)
		}
		if len(out.Cc) != 2 || out.Cc[0].Address != "bo@example.org" || out.Cc[1].Address != "cy@example.org" {
			t.Errorf("cc %+v", out.Cc)
		}
		if out.InReplyTo != "q.1@example.org" || !slices.Equal(out.References, []string{"root@example.org", "q.1@example.org"}) || out.MessageID != "q.2@example.org" {
			t.Errorf("ids: in_reply_to %q references %q message_id %q", out.InReplyTo, out.References, out.MessageID)
		}
		// No Reply-To header: none, though the envelope repeats From.
		plain := b.Seed(t, user, "INBOX", mail("plain", "ann@example.org", 0))
		out = imapwire.GetMessageOut{}
		mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: plain}, &out))
		if len(out.ReplyTo) != 0 || len(out.Cc) != 0 || out.InReplyTo != "" || len(out.References) != 0 {
			t.Errorf("a message without them: reply_to %v cc %v in_reply_to %q references %v", out.ReplyTo, out.Cc, out.InReplyTo, out.References)
		}
	})
}

// A hostile References (10,000 ids, a folded line hiding a header, bytes
// outside the grammar) comes back capped to the first and the last 50,
// each a clean id taken as written (never a sanitised id with its
// control bytes taken out).
func TestGetMessageHostileReferences(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		var refs strings.Builder
		refs.WriteString("<first@x> <in\r\n jected@x> <ctl\x01@x> <ok\xc3\xa9@x>")
		for i := range 10000 {
			fmt.Fprintf(&refs, "\r\n <r%d@x>", i)
		}
		// Sanitised as display text, these would pass as ids ("ctl@y"):
		// the raw header is read, and they are refused.
		refs.WriteString(" <ctl\x01@y> <esc\x1b[31m@y> <ok\xc3\xa9@y>")
		raw := imaptest.Mail{From: "ann@example.org", To: "me@example.org", Subject: "long thread", Date: time.Now(),
			Headers: map[string]string{"References": refs.String(), "In-Reply-To": "<a\r\n b@x>"}, Body: "x"}.Bytes()
		uid := b.Seed(t, user, "INBOX", raw)
		var out imapwire.GetMessageOut
		mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uid}, &out))
		if len(out.References) != 51 || out.References[0] != "first@x" || out.References[1] != "r9950@x" || out.References[50] != "r9999@x" {
			t.Fatalf("%d references: %q ... %q", len(out.References), out.References[:min(3, len(out.References))], out.References[max(0, len(out.References)-2):])
		}
		for _, id := range out.References {
			for _, c := range []byte(id) {
				if c <= ' ' || c >= 0x7f || c == '<' || c == '>' {
					t.Fatalf("unclean id %q", id)
				}
			}
		}
		if out.InReplyTo != "" {
			t.Fatalf("in_reply_to %q from a folded id", out.InReplyTo)
		}
	})
}

func base64Lines(data []byte) string {
	var b strings.Builder
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
	return b.String()
}
