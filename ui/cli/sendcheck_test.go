package cli_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"unibox/ui/cli"
	"unibox/ui/facetest"
)

// multipart is a message to Bob with a text part and an attachment, each
// part's header given.
func multipart(textPart, attachPart string) string {
	return "To: Bob <bob@example.com>\r\nSubject: files\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" +
		"--b\r\n" + textPart + "\r\n--b\r\n" + attachPart + "\r\n--b--\r\n"
}

// `unibox send` holds a script's message to what the review holds a
// person's draft to (issue 35): From is the account's, header values and
// decoded text parts draw every character they hold, and a bare LF in a
// CRLF header never starts a header field. Each is refused with exit 2
// naming the header or part, on a live server that delivers nothing.
func TestSendChecksLikeTheReview(t *testing.T) {
	const to = "To: Bob <bob@example.com>\r\n"
	const pdf = "Content-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n"
	for _, tc := range []struct{ name, msg, errHas string }{
		{"From not an address", "From: not an address\r\n" + to + "\r\nhi\r\n", `From: "not an address": it is not one address`},
		{"From of another person", "From: Bob <bob@example.com>\r\n" + to + "\r\nhi\r\n", `From: "bob@example.com" is not one of this account's addresses (sam@example.com, sales@example.com`},
		{"two From fields", "From: sam@example.com\r\nFrom: sam@example.com\r\n" + to + "\r\nhi\r\n", "From: the message has 2 From fields"},
		{"From of two addresses", "From: sam@example.com, eve@example.org\r\n" + to + "\r\nhi\r\n", "From: \"sam@example.com, eve@example.org\": it is not one address"},
		{"Sender of another person", "Sender: eve@example.org\r\n" + to + "\r\nhi\r\n", `Sender: "eve@example.org" is not one of this account's addresses`},
		{"lone CR in Subject", to + "Subject: hi\rBcc: carol@example.com\r\n\r\nhi\r\n", `header "Subject" holds a bare CR (U+000D)`},
		{"bare LF starts no header", to + "Subject: hi\nBcc: carol@example.com\r\n\r\nhi\r\n", `header "Subject" holds a bare LF (U+000A) not part of a CRLF line end`},
		{"ESC and BEL in Subject", to + "Subject: \x1b]0;owned\x07hi\r\n\r\nhi\r\n", "Subject holds a control character (U+001B)"},
		{"tab in Subject", to + "Subject: a\tb\r\n\r\nhi\r\n", "Subject holds a control character (U+0009)"},
		{"RLO in Subject", to + "Subject: invoice\u202efdp.exe\r\n\r\nhi\r\n", "Subject holds a bidi control (U+202E)"},
		{"encoded tag characters in Subject", to + "Subject: =?utf-8?q?hi=F3=A0=81=B0?=\r\n\r\nhi\r\n", "Subject holds a tag character (U+E0070)"},
		{"filler in a display name", "To: =?utf-8?q?Bob=E3=85=A4?= <bob@example.com>\r\n\r\nhi\r\n", "To holds a blank character that draws nothing"},
		{"tag-encoded secret in a quoted-printable text", to + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
			"Hi,\r\nThanks, see you Monday.=F3=A0=81=B0=F3=A0=81=B7\r\n", "body, line 2, holds a tag character (U+E0070)"},
		{"invisible plus in a text part", multipart("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nb2vigaQ=", pdf+"\r\nJVBERg=="),
			"body part 1, line 1, holds an invisible format character (U+2064)"},
		{"lone CR in a text part", multipart("Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\na=0Db", pdf+"\r\nJVBERg=="),
			"body part 1, line 1, holds a control character (U+000D)"},
		{"attachment name", multipart("Content-Type: text/plain\r\n\r\nok", pdf+"Content-Disposition: attachment; filename*=utf-8''a%E2%81%A1.pdf\r\n\r\nJVBERg=="),
			"body part 2 attachment name holds an invisible format character (U+2061)"},
		{"text in an unknown charset", to + "Content-Type: text/plain; charset=x-nobody-knows\r\n\r\nhi\r\n", "its text cannot be checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, smtp := sendWorld(t)
			cfg := sendConfig(t, srv, smtp.Port(), `aliases = ["sales@example.com"]`)
			out, code, stderr := runSend(t, tc.msg, "--config", cfg, "--account", "Work")
			if code != 2 || out.Outcome != "failed" || !strings.Contains(out.Error, tc.errHas) || !strings.Contains(stderr, tc.errHas) {
				t.Fatalf("exit %d %+v\nstderr %s\nwant exit 2 and %q", code, out, stderr, tc.errHas)
			}
			if smtp.MailCommands() != 0 || len(facetest.Folder(t, srv, "bob", "bobpw", "INBOX")) != 0 || len(facetest.Folder(t, srv, "carol", "carolpw", "INBOX")) != 0 {
				t.Errorf("refused, yet %d MAIL commands reached the server", smtp.MailCommands())
			}
			if es := outboxEntries(t); len(es) != 0 {
				t.Errorf("left in the outbox: %+v", es)
			}
		})
	}
}

// What the review would pass goes: From as the account's address (any
// case) or an alias, emoji and Persian in the header and text, and a
// bare LF in a CRLF file's body, which goes as CRLF.
func TestSendAcceptsTheAccountsOwn(t *testing.T) {
	for _, tc := range []struct{ name, msg, from string }{
		{"alias", "From: Sales <sales@example.com>\r\nTo: bob@example.com\r\nSubject: =?utf-8?q?=F0=9F=91=A8=E2=80=8D=F0=9F=91=A9=E2=80=8D=F0=9F=91=A7?=\r\n\r\nhi\r\n", "From: Sales <sales@example.com>"},
		{"from in capitals", "From: Sam <SAM@Example.com>\r\nTo: bob@example.com\r\n\r\nhi\r\n", "From: Sam <SAM@Example.com>"},
		{"bare LF in the body", "To: bob@example.com\r\nSubject: hi\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nline one\nمی\u200cخواهم ❤\ufe0f\r\nend\n", "Sam\" <sam@example.com>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, smtp := sendWorld(t)
			cfg := sendConfig(t, srv, smtp.Port(), `aliases = ["sales@example.com"]`+"\n"+`save_sent = "always"`)
			out, code, stderr := runSend(t, tc.msg, "--config", cfg, "--account", "Work")
			if code != 0 || out.Outcome != "sent" {
				t.Fatalf("exit %d %+v\n%s", code, out, stderr)
			}
			bob := withID(facetest.Folder(t, srv, "bob", "bobpw", "INBOX"), out.MessageID)
			if len(bob) != 1 || !bytes.Contains(bob[0].Raw, []byte(tc.from)) {
				t.Fatalf("bob has %d; want one from %q", len(bob), tc.from)
			}
			sent := withID(facetest.Folder(t, srv, "sam", "pw", "Sent"), out.MessageID)
			if len(sent) != 1 {
				t.Fatalf("Sent has %d copies", len(sent))
			}
			for who, raw := range map[string][]byte{"bob": bob[0].Raw, "Sent": sent[0].Raw} {
				if n, crlf := bytes.Count(raw, []byte("\n")), bytes.Count(raw, []byte("\r\n")); n != crlf {
					t.Errorf("%d bare LF reached %s:\n%q", n-crlf, who, raw)
				}
			}
		})
	}
}

// A hostile SMTP server's reply, escape sequences and all, reaches the
// terminal made safe: on stderr, and in the JSON's decoded error.
func TestSendServerWordsAreMadeSafe(t *testing.T) {
	const hostile = "no \x1b]0;owned\x07\x1b[2J\u202eway"
	for _, asJSON := range []bool{true, false} {
		srv, smtp := sendWorld(t)
		cfg := sendConfig(t, srv, smtp.Port(), `save_sent = "never"`)
		smtp.FailAtSaying("mail", 550, hostile)
		args := []string{"--config", cfg, "--account", "Work"}
		if asJSON {
			args = append(args, "--json")
		}
		var stdout, stderr bytes.Buffer
		code := cli.Send(args, strings.NewReader(toBob), &stdout, &stderr)
		var out cli.SendJSON
		if asJSON {
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("%v: %s", err, stdout.String())
			}
		}
		if code != 1 || !strings.Contains(stderr.String(), "no ]0;owned") && !strings.Contains(stderr.String(), "no way") {
			t.Fatalf("json %v: exit %d, stderr %q: want 1 and the server's words", asJSON, code, stderr.String())
		}
		for _, s := range []string{stderr.String(), stdout.String(), out.Error} {
			if r, bad := unsafe(s); bad {
				t.Errorf("json %v: %U reached the terminal: %q", asJSON, r, s)
			}
		}
	}
}
