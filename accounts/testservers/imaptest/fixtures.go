package imaptest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// Mail builds a raw RFC 5322 message for seeding.
type Mail struct {
	From, To, Subject string
	Date              time.Time // zero: no Date header
	MessageID         string    // without <>; empty: generated
	Body              string
	HTML              string            // when set, a multipart/alternative with Body as text
	Attach            map[string][]byte // file name → content
	Headers           map[string]string // extra raw headers
	// Calendar, when set, makes an invitation as Google and Outlook send
	// one: a multipart/alternative of Body and this iCalendar text as
	// text/calendar with Method as its method parameter (none when ""),
	// in base64.
	Calendar, Method string
}

// seq makes generated Message-IDs unique; tests build mail in parallel.
var seq atomic.Int64

// Bytes renders the message with CRLF line ends.
func (m Mail) Bytes() []byte {
	var b bytes.Buffer
	h := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	if m.From != "" {
		h("From", m.From)
	}
	if m.To != "" {
		h("To", m.To)
	}
	h("Subject", m.Subject)
	if !m.Date.IsZero() {
		h("Date", m.Date.Format(time.RFC1123Z))
	}
	id := m.MessageID
	if id == "" {
		id = fmt.Sprintf("%d.%d@unibox.test", time.Now().UnixNano(), seq.Add(1))
	}
	h("Message-ID", "<"+id+">")
	for k, v := range m.Headers {
		h(k, v)
	}
	h("MIME-Version", "1.0")
	body := strings.ReplaceAll(m.Body, "\n", "\r\n")
	switch {
	case len(m.Attach) > 0:
		h("Content-Type", `multipart/mixed; boundary="MIXED"`)
		b.WriteString("\r\n--MIXED\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body + "\r\n")
		for name, data := range m.Attach {
			fmt.Fprintf(&b, "--MIXED\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=%q\r\nContent-Transfer-Encoding: base64\r\n\r\n", name)
			enc := base64.StdEncoding.EncodeToString(data)
			for len(enc) > 76 {
				b.WriteString(enc[:76] + "\r\n")
				enc = enc[76:]
			}
			b.WriteString(enc + "\r\n")
		}
		b.WriteString("--MIXED--\r\n")
	case m.Calendar != "":
		h("Content-Type", `multipart/alternative; boundary="ALT"`)
		b.WriteString("\r\n--ALT\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body + "\r\n")
		ct := `text/calendar; charset="UTF-8"`
		if m.Method != "" {
			ct += "; method=" + m.Method
		}
		b.WriteString("--ALT\r\nContent-Type: " + ct + "\r\nContent-Transfer-Encoding: base64\r\n\r\n")
		enc := base64.StdEncoding.EncodeToString([]byte(m.Calendar))
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\r\n--ALT--\r\n")
	case m.HTML != "":
		h("Content-Type", `multipart/alternative; boundary="ALT"`)
		b.WriteString("\r\n--ALT\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body + "\r\n")
		b.WriteString("--ALT\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + m.HTML + "\r\n--ALT--\r\n")
	default:
		h("Content-Type", "text/plain; charset=utf-8")
		b.WriteString("\r\n" + body + "\r\n")
	}
	return b.Bytes()
}

// FilesMail is "the files", from Ann to to: a text body ("see attached")
// and the named parts, each declared application/pdf whatever it holds,
// in base64 lines of 76 columns.
func FilesMail(to string, names []string, parts [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString("From: Ann <ann@example.org>\r\nTo: " + to + "\r\nSubject: the files\r\nDate: " + time.Now().Add(-time.Hour).Format(time.RFC1123Z) + "\r\n")
	b.WriteString("Message-ID: <files@unibox.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n")
	for i, name := range names {
		enc := base64.StdEncoding.EncodeToString(parts[i])
		fmt.Fprintf(&b, "--B\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"%s\"\r\nContent-Transfer-Encoding: base64\r\n\r\n", name)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\r\n")
	}
	b.WriteString("--B--\r\n")
	return b.Bytes()
}
