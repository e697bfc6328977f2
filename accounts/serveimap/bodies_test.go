package serveimap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

// rawMail is a message with a hand-made MIME body under a usual header.
func rawMail(subject, contentType, body string) []byte {
	return []byte("From: Ann <ann@example.org>\r\nTo: me@example.org\r\nSubject: " + subject + "\r\nDate: " +
		time.Now().Add(-time.Hour).Format(time.RFC1123Z) + "\r\nMessage-ID: <" + strings.ReplaceAll(subject, " ", ".") + "@x>\r\nMIME-Version: 1.0\r\nContent-Type: " +
		contentType + "\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
}

// fetch_bodies reads each message's text as get_message's body says it
// (the viewer's text: the plain part, else the HTML part as text, else
// an attached message's), reading no attachment: a message with a 2 MB
// attachment costs a few hundred bytes.
func TestFetchBodiesReadsTheViewersText(t *testing.T) {
	big := make([]byte, 2<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	latin1 := base64Lines([]byte("Gr\xfc\xdfe aus K\xf6ln"))
	cases := []struct {
		name     string
		raw      []byte
		fromHTML bool
		maxBytes int64 // what reading it may cost at most
	}{
		{"plain", imaptest.Mail{From: "ann@example.org", Subject: "plain", Body: "just the text, plain\n"}.Bytes(), false, 100},
		{"alternative", imaptest.Mail{From: "ann@example.org", Subject: "alt", Body: "the plain version, long enough to be the body of the message\n",
			HTML: "<p>the <b>html</b> version</p>"}.Bytes(), false, 200},
		{"html only", rawMail("html", "text/html; charset=utf-8", "<html><body><h1>Title</h1><p>One &amp; two<br>three</p></body></html>\n"), true, 200},
		{"blank plain and html", rawMail("blank", `multipart/alternative; boundary="A"`,
			"--A\nContent-Type: text/plain\n\n \n--A\nContent-Type: text/html\n\n<p>the real <i>body</i></p>\n--A--\n"), true, 200},
		{"attachment", imaptest.Mail{From: "ann@example.org", Subject: "files", Body: "see the attachment\n", Attach: map[string][]byte{"big.bin": big}}.Bytes(), false, 200},
		{"latin1 base64", rawMail("latin", "multipart/mixed; boundary=\"M\"",
			"--M\nContent-Type: text/plain; charset=\"iso-8859-1\"\nContent-Transfer-Encoding: base64\n\n"+latin1+"--M\nContent-Type: application/pdf\nContent-Disposition: attachment; filename=\"a.pdf\"\n\n%PDF\n--M--\n"), false, 200},
		{"forwarded message only", rawMail("fwd", `multipart/mixed; boundary="F"`,
			"--F\nContent-Type: message/rfc822\n\nFrom: Bo <bo@example.org>\nSubject: inner\nDate: Mon, 1 Dec 2026 10:00:00 +0000\n\nthe inner text\n--F--\n"), false, 400},
		{"huge plain", imaptest.Mail{From: "ann@example.org", Subject: "huge", Body: strings.Repeat("word ", 400<<10)}.Bytes(), false, 1<<20 + 16}, // the cap, and the list fields (none)
	}
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		uids := make([]uint32, len(cases))
		for i, c := range cases {
			uids[i] = b.Seed(t, user, "INBOX", c.raw)
		}
		var st imapwire.FetchBodiesOut
		mustOK(t, "fetch_bodies", call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDValidity: 0, UIDs: uids[:1], MaxBytes: 1}, &st))
		if st.Answered != 0 || len(st.Bodies) != 0 || st.UIDValidity == 0 {
			t.Fatalf("another UIDVALIDITY: %s", pretty(st))
		}
		uv := st.UIDValidity
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var get imapwire.GetMessageOut
				mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uids[i]}, &get))
				var out imapwire.FetchBodiesOut
				mustOK(t, "fetch_bodies", call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDValidity: uv, UIDs: uids[i : i+1], MaxBytes: 1 << 20}, &out))
				if out.Answered != 1 || len(out.Bodies) != 1 || out.Bodies[0].UID != uids[i] {
					t.Fatalf("answer %s", pretty(out))
				}
				got := out.Bodies[0]
				if got.Text != get.Body || got.FromHTML != get.BodyIsHTML || got.FromHTML != c.fromHTML {
					t.Errorf("text %q (html %v), get_message's %q (html %v), want html %v", cut(got.Text), got.FromHTML, cut(get.Body), get.BodyIsHTML, c.fromHTML)
				}
				if out.Bytes <= 0 || out.Bytes > c.maxBytes {
					t.Errorf("read %d bytes of a %d-byte message, want at most %d", out.Bytes, len(c.raw), c.maxBytes)
				}
			})
		}
	})
}

func cut(s string) string {
	if len(s) > 80 {
		return s[:40] + "…" + s[len(s)-40:]
	}
	return s
}

// The budget ends a batch before the message that would pass it (the
// first is read whatever its size); a uid the folder lacks is gone.
func TestFetchBodiesBudgetAndGone(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		var uids []uint32
		for i := range 5 {
			uids = append(uids, b.Seed(t, user, "INBOX", imaptest.Mail{From: "ann@example.org", Subject: fmt.Sprint(i), Body: strings.Repeat(fmt.Sprintf("m%d ", i), 250)}.Bytes()))
		}
		c := b.Client(t, user)
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		if err := c.Store(imap.UIDSetNum(imap.UID(uids[1])), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
		if err := c.UIDExpunge(imap.UIDSetNum(imap.UID(uids[1]))).Close(); err != nil {
			t.Fatal(err)
		}
		var first imapwire.FetchBodiesOut
		mustOK(t, "fetch_bodies", call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDs: uids[:1], MaxBytes: 1}, &first))
		uv := first.UIDValidity
		mustOK(t, "fetch_bodies", call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDValidity: uv, UIDs: uids[:1], MaxBytes: 1}, &first))
		if first.Answered != 1 || len(first.Bodies) != 1 {
			t.Fatalf("a message over the whole budget is still read first: %s", pretty(first))
		}
		// Each message is ~750 bytes: a budget of 1,600 takes two and
		// the gone one between them.
		var out imapwire.FetchBodiesOut
		mustOK(t, "fetch_bodies", call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDValidity: uv, UIDs: uids, MaxBytes: 1600}, &out))
		if out.Answered != 3 || len(out.Bodies) != 2 || out.Bodies[0].UID != uids[0] || out.Bodies[1].UID != uids[2] ||
			len(out.Gone) != 1 || out.Gone[0] != uids[1] || out.Bytes > 1600 {
			t.Fatalf("budget: %s", pretty(out))
		}
		res := call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDValidity: uv, UIDs: make([]uint32, imapwire.MaxBodiesUIDs+1), MaxBytes: 1}, nil)
		if !res.IsError {
			t.Errorf("over the uid limit: not refused")
		}
	})
}

// fetch_bodies reads a message's list fields beside its text (the
// contacts index tells lists and robots by them), decoded and made safe
// as get_message's headers are; no other field comes with them.
func TestFetchBodiesReadsListFields(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		list := b.Seed(t, user, "INBOX", imaptest.Mail{From: "ann@example.org", Subject: "on the list", Body: "hello list\n",
			Headers: map[string]string{"List-Id": "=?utf-8?q?D=C3=A9v?= <dev.lists.example.org>", "List-Post": "<mailto:dev@lists.example.org>",
				"Precedence": "list\x1b[31m", "X-Other": "not asked"}}.Bytes())
		person := b.Seed(t, user, "INBOX", imaptest.Mail{From: "bo@example.org", Subject: "from a person", Body: "hi\n"}.Bytes())
		var first imapwire.FetchBodiesOut
		mustOK(t, "fetch_bodies", call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDs: []uint32{list}, MaxBytes: 1}, &first))
		var out imapwire.FetchBodiesOut
		mustOK(t, "fetch_bodies", call(t, cs, "fetch_bodies", imapwire.FetchBodiesIn{Account: "work", UIDValidity: first.UIDValidity, UIDs: []uint32{list, person}, MaxBytes: 1 << 20}, &out))
		if len(out.Bodies) != 2 {
			t.Fatalf("answer %s", pretty(out))
		}
		got := map[string]string{}
		for _, h := range out.Bodies[0].Headers {
			got[h.Name] = h.Value
		}
		want := map[string]string{"List-Id": "Dév <dev.lists.example.org>", "List-Post": "<mailto:dev@lists.example.org>", "Precedence": "list"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("list fields %q, want %q", got, want)
		}
		if h := out.Bodies[1].Headers; len(h) != 0 {
			t.Errorf("a person's message has list fields %q", h)
		}
	})
}
