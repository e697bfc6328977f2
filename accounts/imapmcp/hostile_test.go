package imapmcp

import (
	"strings"
	"testing"
	"unicode/utf8"

	"unibox/accounts/imaptest"
)

// hostileMessages are raw messages a list must survive: each comes back,
// with placeholders where it is broken, and nothing unsafe in any string.
var hostileMessages = map[string]string{
	"escapes":         "From: =?UTF-8?B?G10wO2V2aWwHRXZl?= <eve@x.org>\r\nSubject: \x1b[2J\x1b]52;c;ZXZpbA==\x07Hi\x1b[6n\r\nDate: Mon, 2 Jan 2006 15:04:05 +0000\r\n\r\nbody \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\\r\n",
	"no date no from": "Subject: orphan\r\n\r\nno headers to speak of\r\n",
	"bad date":        "From: a@x.org\r\nSubject: when?\r\nDate: the day after tomorrow\r\n\r\nx\r\n",
	"latin1 word":     "From: =?ISO-8859-1?Q?Andr=E9?= <andre@x.org>\r\nSubject: =?windows-1252?Q?=93quoted=94?=\r\nDate: Mon, 2 Jan 2006 15:04:05 +0000\r\n\r\nx\r\n",
	"unknown charset": "From: a@x.org\r\nSubject: =?x-unknown?Q?abc?= tail\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nbody\r\n",
	"broken mime":     "From: a@x.org\r\nSubject: broken\r\nContent-Type: multipart/mixed; boundary=\"nope\"\r\n\r\n--other\r\nContent-Type: text/plain\r\n\r\ntext without its boundary\r\n",
	"bidi":            "From: a@x.org\r\nSubject: invoice \u202efdp.exe\r\n\r\nx\r\n",
	"long subject":    "From: a@x.org\r\nSubject: " + strings.Repeat("long ", 2000) + "\r\n\r\nx\r\n",
}

func safe(t *testing.T, where, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%s: invalid UTF-8: %q", where, s)
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
			t.Errorf("%s: control %U in %q", where, r, s)
			return
		}
	}
}

func TestHostileMailSurvivesListAndGet(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for _, raw := range hostileMessages {
			b.Seed(t, user, "INBOX", []byte(raw))
		}
		var list ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", ListMessagesIn{Account: "work"}, &list))
		if len(list.Messages) != len(hostileMessages) {
			t.Fatalf("one bad message failed the list: %d of %d", len(list.Messages), len(hostileMessages))
		}
		for _, m := range list.Messages {
			safe(t, "subject", m.Subject)
			safe(t, "from name", m.From.Name)
			safe(t, "from address", m.From.Address)
			if m.Date == "" {
				t.Errorf("message %d has no date at all (the arrival time is the fallback)", m.UID)
			}
			var got GetMessageOut
			mustOK(t, "get_message", call(t, cs, "get_message", GetMessageIn{Account: "work", UID: m.UID}, &got))
			safe(t, "body", got.Body)
			for _, h := range got.Headers {
				safe(t, "header", h.Value)
			}
		}
	})
}
