package mcpprovider

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"unibox/conn"
	"unibox/model"
)

type wantMsg struct {
	uid                       uint32
	subject, name, addr       string
	seen, flagged, answ, atch bool
	date                      string // RFC 3339, "" for none
}

func checkMsgs(t *testing.T, got []parsed, want []wantMsg) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d messages, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		m := g.msg
		var wd time.Time
		if w.date != "" {
			wd, _ = time.Parse(time.RFC3339, w.date)
		}
		if g.uid != w.uid || m.Subject != w.subject || m.From.Name != w.name || m.From.Address != w.addr ||
			m.Seen != w.seen || m.Flagged != w.flagged || m.Answered != w.answ || m.HasAttachments != w.atch || !m.Date.Equal(wd) {
			t.Errorf("message %d: %+v (uid %d), want %+v", i, m, g.uid, w)
		}
	}
}

func TestParseTextListing(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		total int
		want  []wantMsg
	}{
		{"email-mcp page", "📬 [INBOX] 2 emails (page 1/1)\n\n[7] 🔵 ⭐ 📎 Report\n  From: Ann Example <ann@example.com> | 2026-01-02T03:04:05.000Z\n\n[9]  Plain\n  From: bob@example.com | 2026-01-03T00:00:00Z\n",
			2, []wantMsg{
				{7, "Report", "Ann Example", "ann@example.com", false, true, false, true, "2026-01-02T03:04:05Z"},
				{9, "Plain", "", "bob@example.com", true, false, false, false, "2026-01-03T00:00:00Z"}}},
		{"replied with variation selector, labels and bulk lines", "📬 [Work] 1 emails (page 1/3) — more pages available\n\n[12] ↩️ Re: plan\n  From: \"Doe, Jane\" <jane@example.com> | 2026-02-01T10:00:00.000Z\n  🏷️ work, urgent\n  📰 newsletter\n",
			1, []wantMsg{{12, "Re: plan", "Doe, Jane", "jane@example.com", true, false, true, false, "2026-02-01T10:00:00Z"}}},
		{"missing From line and date", "[3] 🔵 No sender\n[4] Only name\n  From: Support Team\n", 0, []wantMsg{
			{3, "No sender", "", "", false, false, false, false, ""},
			{4, "Only name", "Support Team", "", true, false, false, false, ""}}},
		{"bad date kept as zero", "[5] x\n  From: a@b.c | Invalid Date\n", 0, []wantMsg{{5, "x", "", "a@b.c", true, false, false, false, ""}}},
		{"hostile subject sanitised", "[6] \x1b]0;pwned\x07Hello\x1b[2J there\n  From: Eve <eve@example.com> | 2026-01-01T00:00:00Z\n", 0,
			[]wantMsg{{6, "Hello there", "Eve", "eve@example.com", true, false, false, false, "2026-01-01T00:00:00Z"}}},
		{"header without emoji", "[INBOX] 1 emails (page 1/1)\n\n[8] Hi\n", 1, []wantMsg{{8, "Hi", "", "", true, false, false, false, ""}}},
		{"empty", "No emails found matching the criteria.", 0, nil},
		{"crlf", "📬 [INBOX] 1 emails (page 1/1)\r\n\r\n[2] 🔵 Win\r\n  From: a@b.c | 2026-01-01T00:00:00Z\r\n", 1,
			[]wantMsg{{2, "Win", "", "a@b.c", false, false, false, false, "2026-01-01T00:00:00Z"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := parseListing(c.text)
			if err != nil {
				t.Fatal(err)
			}
			if l.total != c.total {
				t.Errorf("total %d, want %d", l.total, c.total)
			}
			checkMsgs(t, l.msgs, c.want)
		})
	}
}

func TestParseJSONListing(t *testing.T) {
	msg := func(from string) string {
		return `{"uid": 11, "flags": ["\\Seen", "\\Flagged", "\\Answered"], "date": "2026-01-02T03:04:05.000Z", "size": 0,
			"subject": "Hi \u001b[31mthere", "from": ` + from + `, "to": "me@example.com", "attachments": [{"filename": "a"}]}`
	}
	full := wantMsg{11, "Hi there", "Ann", "ann@example.com", true, true, true, true, "2026-01-02T03:04:05Z"}
	cases := []struct {
		name string
		text string
		want []wantMsg
	}{
		{"from as string", "[" + msg(`"Ann <ann@example.com>"`) + "]", []wantMsg{full}},
		{"from as object", "[" + msg(`{"name": "Ann", "address": "ann@example.com"}`) + "]", []wantMsg{full}},
		{"from as mailparser value", "[" + msg(`{"value": [{"name": "Ann", "address": "ann@example.com"}], "text": "Ann <ann@example.com>"}`) + "]", []wantMsg{full}},
		{"from as array", "[" + msg(`[{"name": "Ann", "address": "ann@example.com"}]`) + "]", []wantMsg{full}},
		{"from as mailparser text only", "[" + msg(`{"text": "Ann <ann@example.com>"}`) + "]", []wantMsg{full}},
		{"search object", `{"searchType": "By Body", "totalMatches": 1, "messages": [` + msg(`"Ann <ann@example.com>"`) + `]}`, []wantMsg{full}},
		{"single object", msg(`"Ann <ann@example.com>"`), []wantMsg{full}},
		{"uid as string, no flags, no from", `[{"uid": "12", "subject": "s"}]`, []wantMsg{{12, "s", "", "", true, false, false, false, ""}}},
		{"unseen, html false", `[{"uid": 13, "flags": [], "html": false, "from": null}]`, []wantMsg{{13, "", "", "", false, false, false, false, ""}}},
		{"empty array", `[]`, nil},
		{"null messages", `{"messages": null}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := parseListing(c.text)
			if err != nil {
				t.Fatal(err)
			}
			checkMsgs(t, l.msgs, c.want)
		})
	}
}

// A server that gives the threading ids has them carried raw (the
// display Message-ID is another field); one that does not has none.
func TestParseJSONThreading(t *testing.T) {
	l, err := parseListing(`[{"uid": 1, "messageId": "<a@x>", "inReplyTo": "<p@x>", "references": ["<r@x>", "p@x", "bad id"]},
		{"uid": 2, "messageId": "b@x"}, {"uid": 3}, {"uid": 4, "references": "<r@x> junk <p@x>"}]`)
	if err != nil || len(l.msgs) != 4 {
		t.Fatalf("%+v %v", l.msgs, err)
	}
	want := []*model.ThreadHeaders{
		{MessageID: "a@x", InReplyTo: "p@x", References: []string{"r@x", "p@x"}},
		{MessageID: "b@x"}, nil, {References: []string{"r@x", "p@x"}},
	}
	for i, w := range want {
		if got := l.msgs[i].msg.Threading; !reflect.DeepEqual(got, w) {
			t.Errorf("uid %d: threading %+v, want %+v", l.msgs[i].uid, got, w)
		}
	}
}

// A server that lists IMAP flags says $Forwarded in whatever case the
// mail server keeps it; the row shows it as forwarded.
func TestParseJSONForwarded(t *testing.T) {
	l, err := parseListing(`[{"uid": 1, "flags": ["$Forwarded"]}, {"uid": 2, "flags": ["$forwarded", "\\Answered"]}, {"uid": 3, "flags": ["\\Seen", "Forwarded"]}]`)
	if err != nil || len(l.msgs) != 3 {
		t.Fatalf("%+v %v", l.msgs, err)
	}
	for i, want := range [][2]bool{{false, true}, {true, true}, {false, false}} {
		if m := l.msgs[i].msg; m.Answered != want[0] || m.Forwarded != want[1] {
			t.Errorf("uid %d: answered %v forwarded %v, want %v", l.msgs[i].uid, m.Answered, m.Forwarded, want)
		}
	}
}

// Garbage is an error (the provider makes it a protocol error of this
// account); it never panics and never reads as an empty inbox.
func TestParseGarbage(t *testing.T) {
	listings := []string{
		"<html>502 Bad Gateway</html>",
		"",
		"Here are your emails!",
		"[abc] not a uid",
		"📬 [INBOX] 3 emails (page 1/1)\n",
		`[{"uid": "x"}]`,
		`[{"uid": 0}]`,
		`[{"uid": 5000000000}]`,
		`[{"uid": 1.5}]`,
		`[1, 2]`,
		`{"foo": 1}`,
		`{"messages": 3}`,
		`[{"uid": 1}`,
		`42`,
		`"text"`,
	}
	for _, text := range listings {
		if l, err := parseListing(text); err == nil {
			t.Errorf("listing %q parsed: %+v", text, l)
		}
	}
	bodies := []string{"<html>oops</html>", "hello\n\nworld", `{"nouid": true}`, `"x"`, `[1]`}
	for _, text := range bodies {
		if b, err := parseBody(text); err == nil || errors.Is(err, errNoMessage) {
			t.Errorf("body %q parsed: %+v (%v)", text, b, err)
		}
	}
	for _, text := range []string{`null`, `[]`} {
		if _, err := parseBody(text); !errors.Is(err, errNoMessage) {
			t.Errorf("body %q: %v, want no message", text, err)
		}
	}
	for _, text := range []string{"", `{}`, `[{}]`, `{"x": `} {
		if fs, err := parseFolders(text); err == nil {
			t.Errorf("folders %q parsed: %+v", text, fs)
		}
	}
	p := &mcpProvider{account: "acct", prof: &profile{name: "email-mcp"}}
	_, err := parseListing("garbage")
	mustClass(t, p.protocol("list_emails", err), conn.ClassProtocol)
}

func TestParseBody(t *testing.T) {
	cases := []struct {
		name, text                    string
		subject, from, body, msgID    string
		to                            int
		flagsKnown, seen, flagged, ht bool
		atts                          int
	}{
		{name: "plain headers", text: "From: Ann <ann@example.com>\nTo: me@example.com, you@example.com\nSubject: Hi\nDate: Mon, 2 Feb 2026 10:00:00 +0000\n\nLine one\nLine two\n",
			subject: "Hi", from: "ann@example.com", body: "Line one\nLine two", to: 2, seen: true},
		{name: "emoji subject, status, body marker", text: "📧 Report\nStatus: 🔵 Unread · ⭐ Flagged\nFrom:   Ann <ann@example.com>\nTo:     me@example.com\nDate:   2026-01-02T03:04:05.000Z\nID:     <abc@x>\n📎 Attachments: a.pdf (application/pdf, 1.2KB), b.png (image/png, 3B)\n\n--- Body ---\n\nHello\x1b[2J!\x07\n",
			subject: "Report", from: "ann@example.com", body: "Hello!", msgID: "abc@x", to: 1, flagsKnown: true, flagged: true, atts: 2},
		{name: "json with html only", text: `{"uid": 4, "flags": ["\\Seen"], "subject": "S", "from": "a@b.c", "text": "", "html": "<p>Hi <b>you</b></p><script>x</script>"}`,
			subject: "S", from: "a@b.c", body: "Hi you", flagsKnown: true, seen: true, ht: true},
		{name: "json text", text: `{"uid": 4, "flags": [], "subject": "S", "from": {"name": "N", "address": "a@b.c"}, "to": [{"address": "x@y.z"}], "text": "body\r\n", "html": false, "attachments": [{"filename": "f.txt", "contentType": "text/plain", "size": 3}]}`,
			subject: "S", from: "a@b.c", body: "body", to: 1, flagsKnown: true, atts: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := parseBody(c.text)
			if err != nil {
				t.Fatal(err)
			}
			m := b.msg
			if m.Subject != c.subject || m.From.Address != c.from || b.text != c.body || m.MessageID != c.msgID || len(m.To) != c.to ||
				b.flagsKnown != c.flagsKnown || m.Seen != c.seen || m.Flagged != c.flagged || b.fromHTML != c.ht || len(b.attachments) != c.atts {
				t.Fatalf("got %+v text %q", b, b.text)
			}
		})
	}
}

func TestParseFolders(t *testing.T) {
	cases := []struct {
		name, text string
		want       []model.Folder
	}{
		{"email-mcp text", "• INBOX — 12 messages (3 unread)\n• Archive [\\Archive] — 4 messages\n• Junk [\\Junk] — counts unavailable\n",
			[]model.Folder{{Name: "INBOX", Total: 12, Unread: 3}, {Name: "Archive", SpecialUse: "archive", Total: 4}, {Name: "Junk", SpecialUse: "junk"}}},
		{"plain lines with a heading", "Mailboxes:\nINBOX\nSent Items\n", []model.Folder{{Name: "INBOX"}, {Name: "Sent Items"}}},
		{"node-imap tree", `{"Trash": {"name": "Trash", "attribs": ["\\Trash"], "selectable": true}, "INBOX": {"name": "INBOX", "attribs": [],
			"children": {"Sub": {"name": "INBOX/Sub", "attribs": []}}}, "[Gmail]": {"name": "[Gmail]", "attribs": ["\\Noselect"], "selectable": false}}`,
			[]model.Folder{{Name: "INBOX"}, {Name: "INBOX/Sub"}, {Name: "Trash", SpecialUse: "trash"}}},
		{"list of objects", `[{"path": "INBOX", "totalMessages": 5, "unseenMessages": 1}, {"path": "Sent", "specialUse": "\\Sent"}]`,
			[]model.Folder{{Name: "INBOX", Total: 5, Unread: 1}, {Name: "Sent", SpecialUse: "sent"}}},
		{"structured mailboxes", `{"account": "default", "mailboxes": ["INBOX", "Drafts"]}`, []model.Folder{{Name: "INBOX"}, {Name: "Drafts"}}},
		{"none", "No mailboxes found.", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseFolders(c.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("folder %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
	if !strings.Contains(preview(strings.Repeat("x", 200)), "…") {
		t.Error("preview is not bounded")
	}
}

// A third-party server's listing has no structure: an attachment named
// .ics or typed text/calendar marks the row an invitation of unknown
// method; other attachments do not.
func TestParseJSONInvitation(t *testing.T) {
	for _, tc := range []struct {
		atts string
		want model.Invitation
	}{
		{`[{"filename": "invite.ics", "contentType": "application/octet-stream"}]`, model.InviteCalendar},
		{`[{"filename": "", "contentType": "Text/Calendar"}]`, model.InviteCalendar},
		{`[{"filename": "notes.txt", "contentType": "text/plain"}]`, model.InviteNone},
		{`[]`, model.InviteNone},
	} {
		l, err := parseListing(`[{"uid": 3, "subject": "s", "attachments": ` + tc.atts + `}]`)
		if err != nil || len(l.msgs) != 1 {
			t.Fatalf("%s: %v", tc.atts, err)
		}
		if got := l.msgs[0].msg.Invitation; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.atts, got, tc.want)
		}
	}
}
