package agent

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"unibox/accounts"
)

// attachMail has a text body and the given parts, named a0, a1, ...
func attachMail(parts ...[]byte) []byte {
	var b bytes.Buffer
	b.WriteString("From: a@x.org\r\nTo: sam@x.org\r\nSubject: files\r\nDate: " + time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\n")
	b.WriteString("Content-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n")
	for i, p := range parts {
		fmt.Fprintf(&b, "--B\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"a%d.pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\n", i)
		enc := base64.StdEncoding.EncodeToString(p)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\r\n")
	}
	b.WriteString("--B--\r\n")
	return b.Bytes()
}

// get_attachment returns an attachment's name, type, size and content,
// by the index get_message lists it at, up to 10 MB; a bigger one, a bad
// index or a bad id is refused, saying why.
func TestGetAttachment(t *testing.T) {
	if got := tooBig(1, "a.pdf", MaxAttachmentBytes+1).Error(); !strings.Contains(got, "over get_attachment's limit of 10 MB (10485760 bytes)") {
		t.Fatalf("the refusal at the real limit says %q", got)
	}
	// The refusal's path, at a limit a race-built child lists quickly.
	defer func(was int64) { attachmentLimit = was }(attachmentLimit)
	attachmentLimit = 64 << 10
	r := newRig(t, 0)
	small := []byte("%PDF-1.7 \x00\x01\xff")
	big := bytes.Repeat([]byte{7}, int(attachmentLimit)+1)
	if _, err := r.srv.Append(r.user, "INBOX", attachMail(small, big), nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	var list ListOut
	r.mustCall(t, "list_messages", map[string]any{}, &list)
	if len(list.Messages) != 1 {
		t.Fatalf("list: %+v", list)
	}
	id := list.Messages[0].ID
	var msg GetOut
	r.mustCall(t, "get_message", GetIn{ID: id}, &msg)
	if len(msg.Attachments) != 2 {
		t.Fatalf("attachments: %+v", msg.Attachments)
	}
	var out GetAttachmentOut
	r.mustCall(t, "get_attachment", GetAttachmentIn{ID: id, Index: 0}, &out)
	if out.Name != msg.Attachments[0].Name || out.Type != "application/pdf" || out.Size != int64(len(small)) || out.Content != base64.StdEncoding.EncodeToString(small) {
		t.Fatalf("attachment 0: %q %s %d %q", out.Name, out.Type, out.Size, out.Content)
	}
	// Over the limit, the listed size refuses it: the whole message is
	// read once (the list), the part never fetched on its own.
	r.settled(t)
	before := strings.Count(r.wire.String(), "BODY.PEEK[]")
	res := r.call(t, "get_attachment", GetAttachmentIn{ID: id, Index: 1}, nil)
	if n := strings.Count(r.wire.String(), "BODY.PEEK[]") - before; !res.IsError || n != 1 {
		t.Fatalf("get_attachment over the limit read the message %d times (want 1: the list only): %.200s", n, accounts.ResultText(res))
	}
	for _, tc := range []struct {
		in   GetAttachmentIn
		want string
	}{
		{GetAttachmentIn{ID: id, Index: 1}, fmt.Sprintf(`index 1: attachment "a1.pdf" is %d bytes, over get_attachment's limit of 64 KB (65536 bytes)`, len(big))},
		{GetAttachmentIn{ID: id, Index: 2}, "index 2: the message has 2 attachments"},
		{GetAttachmentIn{ID: id, Index: -1}, "index -1: attachments count from 0"},
		{GetAttachmentIn{ID: strings.Repeat("x", 600), Index: 0}, "id"},
	} {
		res := r.call(t, "get_attachment", tc.in, nil)
		if !res.IsError || !strings.Contains(accounts.ResultText(res), tc.want) {
			t.Errorf("get_attachment %d: %.300s, want an error saying %q", tc.in.Index, accounts.ResultText(res), tc.want)
		}
	}
}
