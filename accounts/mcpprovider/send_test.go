package mcpprovider

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"unibox/accounts/config"
	"unibox/accounts/provider"
	"unibox/accounts/send/smtpsend"
	"unibox/conn"
)

// plainMail is a reply as the outbox holds it: no Bcc header (the wire
// copy never has one), an encoded subject, a quoted-printable body.
const plainMail = "From: Sam <sam@example.com>\r\n" +
	"To: Bob <bob@example.com>, carol@example.com\r\n" +
	"Cc: \"Dee\" <dee@example.com>\r\n" +
	"Subject: =?utf-8?q?Re:_Caf=C3=A9_plans?=\r\n" +
	"Message-ID: <m1@example.com>\r\n" +
	"Date: Fri, 04 Dec 2026 11:00:00 +0000\r\n" +
	"MIME-Version: 1.0\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\n" +
	"Content-Transfer-Encoding: quoted-printable\r\n" +
	"\r\n" +
	"Caf=C3=A9 at noon?\r\n"

// attachedMail is a forward that keeps the original as an attachment.
const attachedMail = "From: Sam <sam@example.com>\r\n" +
	"To: bob@example.com\r\n" +
	"Subject: Fwd: notes\r\n" +
	"MIME-Version: 1.0\r\n" +
	"Content-Type: multipart/mixed; boundary=b1\r\n" +
	"\r\n" +
	"--b1\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n" +
	"--b1\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=notes.pdf\r\n\r\n%PDF-1.4\r\n" +
	"--b1--\r\n"

// alternativeMail has its text twice, plain and HTML.
const alternativeMail = "From: Sam <sam@example.com>\r\n" +
	"To: bob@example.com\r\n" +
	"Subject: agenda\r\n" +
	"MIME-Version: 1.0\r\n" +
	"Content-Type: multipart/alternative; boundary=b2\r\n" +
	"\r\n" +
	"--b2\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n1. budget\r\n" +
	"--b2\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<ol><li>budget</li></ol>\r\n" +
	"--b2--\r\n"

// envelope is plainMail to its To and Cc, and to eve blind.
func envelope(data string) smtpsend.Envelope {
	return smtpsend.Envelope{From: "sam@example.com", Data: []byte(data),
		Rcpt: []string{"bob@example.com", "carol@example.com", "dee@example.com", "eve@example.com"}}
}

// sendOnce runs the account's Send and counts beforeBody, checking that
// it runs before the send tool is called.
func (w *world) sendOnce(env smtpsend.Envelope, tool string, fail error) (smtpsend.Receipt, int, error) {
	w.t.Helper()
	if w.spec.Send == nil {
		w.t.Fatal("Spec.Send is nil")
	}
	before := 0
	rec, err := w.spec.Send(w.t.Context(), w.a, env, func() error {
		before++
		if n := w.calls(tool); n != 0 {
			w.t.Errorf("beforeBody ran after %d calls of %s", n, tool)
		}
		return fail
	})
	return rec, before, err
}

// The message reaches the send tool once, taken apart as its schema
// wants: blind recipients as bcc, never among To or Cc.
func TestSendMapsTheMessage(t *testing.T) {
	cases := []struct {
		profile string
		want    fxSendRecord
	}{
		{"email-mcp", fxSendRecord{"account": "default", "to": []any{"bob@example.com", "carol@example.com"}, "cc": []any{"dee@example.com"},
			"bcc": []any{"eve@example.com"}, "subject": "Re: Café plans", "body": "Café at noon?\r\n"}},
		{"mcp-mail-server", fxSendRecord{"to": "bob@example.com, carol@example.com", "cc": "dee@example.com", "bcc": "eve@example.com",
			"subject": "Re: Café plans", "text": "Café at noon?\r\n"}},
	}
	for _, c := range cases {
		t.Run(c.profile, func(t *testing.T) {
			w := newWorld(t, c.profile, nil)
			rec, before, err := w.sendOnce(envelope(plainMail), "send_email", nil)
			if err != nil || before != 1 || !strings.Contains(rec.Reply, "Email sent") {
				t.Fatalf("send: %v, beforeBody ran %d times, reply %q", err, before, rec.Reply)
			}
			sent := w.sent()
			if len(sent) != 1 || w.calls("send_email") != 1 {
				t.Fatalf("sent %d, called %d times: want once", len(sent), w.calls("send_email"))
			}
			if !reflect.DeepEqual(sent[0], c.want) {
				t.Fatalf("the tool got %#v\nwant %#v", sent[0], c.want)
			}
		})
	}
}

// A refusal is a failure a person must read, with the server's words
// made safe to show; it is neither "try again" nor "may have been sent".
func TestSendRefusedIsAFailure(t *testing.T) {
	for _, profile := range []string{"email-mcp", "mcp-mail-server"} {
		t.Run(profile, func(t *testing.T) {
			w := newWorld(t, profile, nil)
			w.set("send-refuse", "", true)
			_, before, err := w.sendOnce(envelope(plainMail), "send_email", nil)
			if err == nil || errors.Is(err, smtpsend.ErrNotSent) || errors.Is(err, smtpsend.ErrUnknown) {
				t.Fatalf("want a plain failure, got %v", err)
			}
			if !strings.Contains(err.Error(), "550 5.1.1 <nobody@example.net>: Recipient address rejected") || strings.ContainsRune(err.Error(), 0x1b) {
				t.Fatalf("the server's words, sanitised: %q", err)
			}
			if before != 1 || w.calls("send_email") != 1 || len(w.sent()) != 0 {
				t.Fatalf("beforeBody %d, calls %d", before, w.calls("send_email"))
			}
		})
	}
}

// Cut off after the request went out, or told by the server that its
// send timed out: the message may have gone, and it is never sent again
// (the adapter's retry after a drop is for reads).
func TestSendCutAfterTheRequestIsUnknown(t *testing.T) {
	for _, c := range []struct{ profile, knob string }{
		{"email-mcp", "die-send_email"}, {"mcp-mail-server", "die-send_email"},
		{"email-mcp", "send-timeout"}, {"mcp-mail-server", "send-timeout"},
	} {
		t.Run(c.profile+"/"+c.knob, func(t *testing.T) {
			w := newWorld(t, c.profile, nil)
			w.set(c.knob, "", true)
			_, before, err := w.sendOnce(envelope(plainMail), "send_email", nil)
			if !errors.Is(err, smtpsend.ErrUnknown) || errors.Is(err, smtpsend.ErrNotSent) {
				t.Fatalf("want unknown, got %v", err)
			}
			if before != 1 || w.calls("send_email") != 1 || len(w.pids()) != 1 {
				t.Fatalf("beforeBody %d, calls %d, children %d: want 1, 1, 1", before, w.calls("send_email"), len(w.pids()))
			}
		})
	}
}

// Nothing can have left when the server never ran, or when beforeBody
// (the outbox marking the entry "sending") failed: not sent, try later.
func TestSendNothingLeftIsNotSent(t *testing.T) {
	t.Run("child not running", func(t *testing.T) {
		w := newWorld(t, "email-mcp", nil)
		w.set("exit-start", "", true)
		for i := range 2 { // the second meets the cooldown, without I/O
			_, before, err := w.sendOnce(envelope(plainMail), "send_email", nil)
			if !errors.Is(err, smtpsend.ErrNotSent) || errors.Is(err, smtpsend.ErrUnknown) || before != 0 {
				t.Fatalf("try %d: %v, beforeBody ran %d times", i+1, err, before)
			}
		}
		if w.calls("send_email") != 0 {
			t.Fatal("the tool was called")
		}
	})
	t.Run("login refused", func(t *testing.T) {
		// Not sent, and not worth retrying on its own: the outbox's
		// rule for refused credentials.
		w := newWorld(t, "email-mcp", nil)
		w.set("exit-auth", "", true)
		_, before, err := w.sendOnce(envelope(plainMail), "send_email", nil)
		if !errors.Is(err, smtpsend.ErrNotSent) || !errors.Is(err, smtpsend.ErrAuth) || before != 0 {
			t.Fatalf("%v, beforeBody ran %d times", err, before)
		}
	})
	t.Run("beforeBody fails", func(t *testing.T) {
		w := newWorld(t, "mcp-mail-server", nil)
		disk := errors.New("outbox: disk full")
		_, before, err := w.sendOnce(envelope(plainMail), "send_email", disk)
		if !errors.Is(err, smtpsend.ErrNotSent) || !errors.Is(err, disk) || before != 1 {
			t.Fatalf("%v, beforeBody ran %d times", err, before)
		}
		if w.calls("send_email") != 0 {
			t.Fatal("the tool was called")
		}
	})
}

// A message with an attachment is refused by a tool that takes only the
// text (sending half of it is worse than not sending), before anything
// is marked; a mapping with {raw} sends it whole.
func TestSendAttachmentsNeedRaw(t *testing.T) {
	w := newWorld(t, "email-mcp", nil)
	_, before, err := w.sendOnce(envelope(attachedMail), "send_email", nil)
	if err == nil || errors.Is(err, smtpsend.ErrNotSent) || errors.Is(err, smtpsend.ErrUnknown) ||
		!strings.Contains(err.Error(), "1 attachment(s)") || !strings.Contains(err.Error(), "{raw}") {
		t.Fatalf("want a failure naming {raw}, got %v", err)
	}
	if before != 0 || w.calls("send_email") != 0 {
		t.Fatalf("beforeBody %d, calls %d: want none", before, w.calls("send_email"))
	}

	// The same text as HTML is no loss: the plain part goes.
	env := envelope(alternativeMail)
	env.Rcpt = []string{"bob@example.com"}
	if _, _, err := w.sendOnce(env, "send_email", nil); err != nil {
		t.Fatalf("multipart/alternative: %v", err)
	}
	if got := w.sent(); len(got) != 1 || got[0]["body"] != "1. budget" || got[0]["subject"] != "agenda" {
		t.Fatalf("multipart/alternative sent as %#v", got)
	}

	w = newWorld(t, "email-mcp", func(a *config.Account) {
		a.Tools = map[string]config.ToolCall{"send": {Tool: "send_raw",
			Args: map[string]any{"account": "default", "message": "{raw}", "sender": "{from}"}}}
	})
	if _, before, err := w.sendOnce(envelope(attachedMail), "send_raw", nil); err != nil || before != 1 {
		t.Fatalf("send_raw: %v, beforeBody %d", err, before)
	}
	want := fxSendRecord{"account": "default", "message": attachedMail, "sender": "sam@example.com"}
	if got := w.sent(); len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("send_raw got %#v", got)
	}
}

// Without a send mapping the account has no Send; a mapping is checked
// like every other.
func TestSendMapping(t *testing.T) {
	cases := []struct {
		name    string
		profile string
		tools   map[string]config.ToolCall
		canSend bool
		err     string
	}{
		{"email-mcp maps send_email", "email-mcp", nil, true, ""},
		{"mcp-mail-server maps send_email", "mcp-mail-server", nil, true, ""},
		{"no profile, no send", "", map[string]config.ToolCall{"list": {Tool: "ls"}}, false, ""},
		{"own send mapping", "", map[string]config.ToolCall{"send": {Tool: "mail", Args: map[string]any{"m": "{raw}"}}}, true, ""},
		{"a placeholder send lacks", "", map[string]config.ToolCall{"send": {Tool: "mail", Args: map[string]any{"u": "{uid}"}}}, false,
			"tools.send: {uid}: no value in the send operation (it has: {from}, {to}, {cc}, {bcc}, {to_csv}, {cc_csv}, {bcc_csv}, {subject}, {body}, {raw})"},
		{"a send placeholder elsewhere", "", map[string]config.ToolCall{"list": {Tool: "ls", Args: map[string]any{"s": "{subject}"}}}, false,
			"tools.list: {subject}: no value in the list operation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ac := config.Account{Name: "m", Kind: config.KindMCP, Command: []string{"server"}, Profile: c.profile, Tools: c.tools}
			s, err := Build(ac, nil, Options{})
			switch {
			case c.err != "":
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
			case err != nil:
				t.Fatal(err)
			case (s.Send != nil) != c.canSend:
				t.Fatalf("Send set: %v, want %v", s.Send != nil, c.canSend)
			}
		})
	}
}

// The send tool failing on its SMTP side, however its words read (a
// refused login, a throttle, an unreachable relay), is that message's
// failure: three in a row leave the account connected on its one child,
// with no health probe run, and reading goes on. Only the pipe's own
// failures count against the account (TestSendCutAfterTheRequestIsUnknown).
func TestSendFailuresLeaveTheAccountConnected(t *testing.T) {
	says := []string{
		"Failed to send email: Invalid login: 535-5.7.8 Username and Password not accepted",
		"Failed to send email: SMTP authentication failed for smtp.example",
		"Failed to send email: 452 4.5.3 Too many recipients, try again later",
		"Failed to send email: connect ECONNREFUSED 127.0.0.1:587",
	}
	probe := map[string]string{"email-mcp": "check_health", "mcp-mail-server": "get_message_count"}
	for _, c := range []struct{ profile, knob string }{
		{"email-mcp", "send-says"}, {"email-mcp", "send-says-plain"}, {"mcp-mail-server", "send-says"},
	} {
		profile := c.profile
		t.Run(profile+"/"+c.knob, func(t *testing.T) {
			w := newWorld(t, profile, nil)
			w.seed(inbox()...)
			if _, err := w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{}); err != nil {
				t.Fatal(err)
			}
			probes := w.calls(probe[profile])
			for i, text := range says {
				w.set(c.knob, text, true)
				_, err := w.spec.Send(t.Context(), w.a, envelope(plainMail), func() error { return nil })
				if err == nil || errors.Is(err, smtpsend.ErrNotSent) || errors.Is(err, smtpsend.ErrUnknown) || errors.Is(err, smtpsend.ErrAuth) ||
					!strings.Contains(err.Error(), text[len("Failed to send email: "):]) {
					t.Fatalf("send %d: want a refusal in the server's words, got %v", i+1, err)
				}
				if st := w.a.Status(); st.State != conn.StateConnected || st.Connects != 1 || st.Dials != 1 {
					t.Fatalf("after send failure %d (%q): %+v", i+1, text, st)
				}
			}
			if n := w.calls(probe[profile]) - probes; n != 0 {
				t.Fatalf("the send failures ran %d health probes", n)
			}
			pg, err := w.spec.Provider.List(t.Context(), w.a, provider.ListOptions{})
			if err != nil || len(pg.Messages) != 3 {
				t.Fatalf("list after the send failures: %v %+v", err, pg)
			}
			if st := w.a.Status(); st.State != conn.StateConnected || len(w.pids()) != 1 || w.calls("send_email") != len(says) {
				t.Fatalf("after listing: %+v, %d children, %d sends", st, len(w.pids()), w.calls("send_email"))
			}
		})
	}
}
