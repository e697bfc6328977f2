package compose

import (
	"mime"
	"strings"
	"unicode/utf8"

	"unibox/model"
)

// forwardMark opens the forwarded block, as Gmail and most clients write it.
const forwardMark = "---------- Forwarded message ----------"

// maxFileNameLen caps an attachment's name in bytes (a file name's usual
// limit), so its encoded form stays within a header line.
const maxFileNameLen = 255

// Forward passes o on from self to recipients the user adds: one "Fwd:",
// o's headers and text in a block under the body, and o's attachments
// carried as attachments. It does not thread (no In-Reply-To).
func Forward(o Original, self Identity) Draft {
	d := Draft{Kind: KindForward, From: cleanAddress(self.For(o))}
	d.Subject = forwardSubject(o.Subject)
	var b strings.Builder
	b.WriteString("\n" + forwardMark + "\n")
	b.WriteString("From: " + formatAddress(cleanAddress(o.From)) + "\n")
	if !o.Date.IsZero() {
		b.WriteString("Date: " + o.Date.Format("Mon, 2 Jan 2006 15:04 -0700") + "\n")
	}
	b.WriteString("Subject: " + cleanLine(o.Subject) + "\n")
	b.WriteString("To: " + formatList(cleanList(o.To)) + "\n")
	if len(o.Cc) > 0 {
		b.WriteString("Cc: " + formatList(cleanList(o.Cc)) + "\n")
	}
	b.WriteString("\n" + cleanBlock(o.Text) + "\n")
	d.Body = Signed("", b.String(), self.Signature)
	for _, p := range o.Attachments {
		d.Attachments = append(d.Attachments, cleanPart(p))
	}
	return d
}

// cleanPart makes an attachment from mail safe to put in a header: its
// name without controls and at most maxFileNameLen bytes, its type a valid
// media type (else application/octet-stream). The data stays byte-exact.
func cleanPart(p Part) Part {
	return Part{Name: FileName(p.Name), Type: partType(p.Type), Data: p.Data}
}

// FileName is name as an attachment's name goes out: without controls
// or invisible characters, at most maxFileNameLen bytes. A file attached
// from disk is named so on the review too, so what is shown is what is
// sent.
func FileName(name string) string {
	name = cleanLine(name)
	for len(name) > maxFileNameLen {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// partType is t as a media type the writer can declare. go-message refuses
// a part whose charset is not UTF-8 or US-ASCII, and dropping the charset
// would misstate the bytes, so such a part goes as
// application/octet-stream: its bytes intact, its name telling the rest.
func partType(t string) string {
	mt, params, err := mime.ParseMediaType(t)
	if err != nil || mt == "" {
		return "application/octet-stream"
	}
	if cs := strings.ToLower(params["charset"]); cs != "" && cs != "utf-8" && cs != "us-ascii" {
		return "application/octet-stream"
	}
	delete(params, "name")
	if s := mime.FormatMediaType(mt, params); s != "" {
		return s
	}
	return "application/octet-stream"
}

func cleanList(l []model.Address) []model.Address {
	out := make([]model.Address, len(l))
	for i, a := range l {
		out[i] = cleanAddress(a)
	}
	return out
}
