package demo

import (
	"bytes"
	"errors"
	"image/jpeg"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	_ "github.com/emersion/go-message/charset" // ISO-8859-1 for the Latin-1 message
	"github.com/emersion/go-message/mail"
	"go.uber.org/goleak"

	"unibox/accounts/mailtext"
	"unibox/accounts/testservers/memimap"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var testNow = time.Date(2025, 3, 14, 16, 5, 30, 123456789, time.UTC)

// find returns the seed of an account with the given Message-ID.
func find(t *testing.T, seeds []Seed, id string) Seed {
	t.Helper()
	for _, s := range seeds {
		if bytes.Contains(s.Raw, []byte("\r\nMessage-ID: "+id+"\r\n")) {
			return s
		}
	}
	t.Fatalf("no seed with Message-ID %s", id)
	return Seed{}
}

func TestCounts(t *testing.T) {
	boxes := Mailboxes(testNow)
	if len(boxes) != 3 {
		t.Fatalf("accounts: got %d, want 3", len(boxes))
	}
	for _, name := range []string{"Work", "Personal", "Yahoo"} {
		seeds := boxes[name]
		if n := len(seeds); n < 30 || n > 45 {
			t.Errorf("%s: %d messages, want 30–45", name, n)
		}
		inbox := 0
		for _, s := range seeds {
			if s.Folder == "INBOX" {
				inbox++
			}
		}
		if inbox*2 < len(seeds) {
			t.Errorf("%s: only %d of %d messages in INBOX", name, inbox, len(seeds))
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := Mailboxes(testNow), Mailboxes(testNow)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two calls with the same now differ")
	}
	// The time zone of now must not leak into the messages.
	c := Mailboxes(testNow.In(time.FixedZone("X", -7*3600)))
	for name := range a {
		for i := range a[name] {
			if !bytes.Equal(a[name][i].Raw, c[name][i].Raw) || !a[name][i].Received.Equal(c[name][i].Received) {
				t.Errorf("%s #%d depends on now's time zone", name, i)
			}
		}
	}
	// Later now, same messages shifted: only dates change.
	d := Mailboxes(testNow.Add(time.Hour))
	if got, want := d["Work"][5].Received, a["Work"][5].Received.Add(time.Hour); !got.Equal(want) {
		t.Errorf("Received not relative to now: %v, want %v", got, want)
	}
}

func TestMessagesParse(t *testing.T) {
	ids := map[string]string{}
	users := Users()
	for name, seeds := range Mailboxes(testNow) {
		owner := users[name][0]
		for i, s := range seeds {
			if bytes.Contains(bytes.ReplaceAll(s.Raw, []byte("\r\n"), nil), []byte("\n")) {
				t.Errorf("%s #%d: bare LF", name, i)
			}
			for _, line := range bytes.Split(s.Raw, []byte("\r\n")) {
				if len(line) > 998 {
					t.Errorf("%s #%d: line of %d bytes", name, i, len(line))
				}
			}
			r, err := mail.CreateReader(bytes.NewReader(s.Raw))
			if err != nil {
				t.Errorf("%s #%d: %v", name, i, err)
				continue
			}
			h := r.Header
			id := h.Get("Message-ID")
			if prev, dup := ids[id]; dup {
				t.Errorf("%s #%d: Message-ID %s also in %s", name, i, id, prev)
			}
			ids[id] = name
			for _, f := range []string{"From", "To", "Subject", "Message-ID", "MIME-Version", "Content-Type"} {
				if h.Get(f) == "" {
					t.Errorf("%s %s: no %s", name, id, f)
				}
			}
			if id == noDateID {
				if h.Has("Date") {
					t.Errorf("%s: has a Date", id)
				}
			} else if d, err := h.Date(); err != nil || d.After(testNow) || d.Before(testNow.Add(-22*24*time.Hour)) {
				t.Errorf("%s: Date %v (%v), want within 22 days before %v", id, d, err, testNow)
			}
			if s.Received.After(testNow) || (i > 0 && s.Received.Before(seeds[i-1].Received)) {
				t.Errorf("%s: Received %v after now or out of order", id, s.Received)
			}
			if !strings.Contains(h.Get("From")+h.Get("To")+h.Get("Cc"), owner) {
				t.Errorf("%s: %s is neither sender nor recipient", id, owner)
			}
			if _, err := h.Subject(); err != nil && id != hostileID {
				t.Errorf("%s: subject: %v", id, err)
			}
			if _, err := h.AddressList("From"); err != nil {
				t.Errorf("%s: From: %v", id, err)
			}
			// Read every part: all must parse except the broken digest,
			// which must fail (else it is not the broken example it claims).
			var walkErr error
			for {
				p, err := r.NextPart()
				if err == io.EOF {
					break
				}
				if err == nil {
					_, err = io.ReadAll(p.Body)
				}
				if err != nil {
					walkErr = err
					break
				}
			}
			if (walkErr != nil) != (id == brokenBoundaryID) {
				t.Errorf("%s: reading parts: %v", id, walkErr)
			}
		}
	}
}

// TestThreadsInOrder checks that every reply arrived after the message it
// answers, whatever the date nudging in render did.
func TestThreadsInOrder(t *testing.T) {
	for name, seeds := range Mailboxes(testNow) {
		received := map[string]time.Time{}
		parent := map[string]string{}
		for _, s := range seeds {
			r, err := mail.CreateReader(bytes.NewReader(s.Raw))
			if err != nil {
				t.Fatal(err)
			}
			id := r.Header.Get("Message-ID")
			received[id] = s.Received
			parent[id] = r.Header.Get("In-Reply-To")
		}
		for id, p := range parent {
			if at, ok := received[p]; ok && !at.Before(received[id]) {
				t.Errorf("%s: %s arrived before %s, which it answers", name, id, p)
			}
		}
	}
}

func TestFolders(t *testing.T) {
	folders := Folders()
	uses := map[string]bool{"": true, "archive": true, "trash": true, "sent": true, "drafts": true, "junk": true}
	for name, seeds := range Mailboxes(testNow) {
		f := folders[name]
		if _, ok := f["INBOX"]; !ok {
			t.Errorf("%s: no INBOX", name)
		}
		seen := map[string]bool{}
		for folder, use := range f {
			if !uses[use] || (use != "" && seen[use]) {
				t.Errorf("%s: folder %s has bad or repeated special use %q", name, folder, use)
			}
			seen[use] = true
		}
		for _, s := range seeds {
			if _, ok := f[s.Folder]; !ok {
				t.Errorf("%s: seed in folder %q that Folders does not list", name, s.Folder)
			}
		}
	}
	folders["Work"]["INBOX"] = "junk"
	if Folders()["Work"]["INBOX"] != "" {
		t.Error("Folders returns shared maps")
	}
}

func TestUsers(t *testing.T) {
	users := Users()
	for _, name := range []string{"Work", "Personal", "Yahoo"} {
		u := users[name]
		if !strings.HasSuffix(u[0], "@demo.unibox") || u[1] == "" {
			t.Errorf("%s: login %q", name, u)
		}
	}
}

// TestHostileIsSanitised checks that the hostile subject really is hostile
// in the raw message and harmless once mailtext has read it.
func TestHostileIsSanitised(t *testing.T) {
	s := find(t, Mailboxes(testNow)["Yahoo"], hostileID)
	if !bytes.Contains(s.Raw, []byte("\r\nSubject: "+hostileSubject+"\r\n")) {
		t.Fatal("hostile subject missing from the raw message")
	}
	m := mailtext.Parse(bytes.NewReader(s.Raw), mailtext.Options{})
	var subject string
	for _, f := range m.Headers {
		if f.Name == "Subject" {
			subject = f.Value
		}
	}
	for _, got := range []string{subject, m.Text} {
		if strings.ContainsAny(got, "\x1b\x07\u202e\u202d\u2066\u2067\u2068\u2069\u009b") {
			t.Errorf("not sanitised: %q", got)
		}
	}
	if !strings.Contains(subject, "invoice is ready") {
		t.Errorf("sanitised subject %q lost its words", subject)
	}
}

func TestContentReadsWell(t *testing.T) {
	boxes := Mailboxes(testNow)
	parse := func(account, id string) mailtext.Message {
		t.Helper()
		return mailtext.Parse(bytes.NewReader(find(t, boxes[account], id).Raw), mailtext.Options{})
	}
	header := func(m mailtext.Message, name string) string {
		for _, f := range m.Headers {
			if f.Name == name {
				return f.Value
			}
		}
		return ""
	}

	weekly := parse("Work", "<weekly-112.work@demo.unibox>")
	if !weekly.FromHTML || !strings.Contains(weekly.Text, "Flaky tests") {
		t.Errorf("newsletter text: %q", weekly.Text)
	}
	for _, leak := range []string{"trackReader", "TRACKED", "font-family", "display: none"} {
		if strings.Contains(weekly.Text, leak) {
			t.Errorf("newsletter shows %q", leak)
		}
	}

	for id, want := range map[string]string{"<rollout-1.work@demo.unibox>": "Zoë Müller", "<rollout-3.work@demo.unibox>": "Łukasz Nowak", "<tokyo.work@demo.unibox>": "高橋 雅人"} {
		if got := header(parse("Work", id), "From"); !strings.Contains(got, want) {
			t.Errorf("%s: From %q, want %q", id, got, want)
		}
	}
	latin := find(t, boxes["Personal"], "<renee.personal@demo.unibox>")
	if !bytes.Contains(latin.Raw, []byte("charset=iso-8859-1")) || !bytes.Contains(latin.Raw, []byte("=?ISO-8859-1?q?")) {
		t.Error("Latin-1 message is not in ISO-8859-1")
	}
	renee := parse("Personal", "<renee.personal@demo.unibox>")
	if s := header(renee, "Subject"); !strings.HasPrefix(s, "Félicitations") || !strings.Contains(renee.Text, "très bonne nouvelle") {
		t.Errorf("Latin-1 message reads %q / %q", s, renee.Text)
	}
	if s := header(parse("Personal", "<party.personal@demo.unibox>"), "Subject"); !strings.HasPrefix(s, "🎉 Party") {
		t.Errorf("emoji subject reads %q", s)
	}
	if s := header(parse("Work", "<policy.work@demo.unibox>"), "Subject"); len(s) < 150 {
		t.Errorf("long subject is only %d bytes", len(s))
	}

	attached := map[string]string{}
	for _, c := range []struct{ account, id string }{{"Work", "<q3-report.work@demo.unibox>"}, {"Work", "<go-no-go.work@demo.unibox>"}, {"Personal", "<lake.personal@demo.unibox>"}} {
		for _, a := range parse(c.account, c.id).Attachments {
			attached[a.Name] = a.Type
		}
	}
	want := map[string]string{"Q3 report.pdf": "application/pdf", "invite.ics": "text/calendar", "lake.jpg": "image/jpeg"}
	if !reflect.DeepEqual(attached, want) {
		t.Errorf("attachments %v, want %v", attached, want)
	}
}

func TestFilesAreReal(t *testing.T) {
	if _, err := jpeg.DecodeConfig(bytes.NewReader(jpegPhoto())); err != nil {
		t.Errorf("photo: %v", err)
	}
	pdf := pdfDoc("Title", "a (b) c")
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) || !bytes.Contains(pdf, []byte(`(a \(b\) c)`)) {
		t.Errorf("pdf: %q", pdf)
	}
	ics := string(invite{uid: "u", summary: strings.Repeat("é", 60), start: testNow, organizer: priya}.ics(testNow))
	for _, line := range strings.Split(ics, "\r\n") {
		if len(line) > 75 {
			t.Errorf("ics line of %d octets", len(line))
		}
	}
	if !strings.Contains(ics, "METHOD:REQUEST\r\n") || !strings.Contains(ics, "DTSTART:20250314T160530Z\r\n") {
		t.Errorf("ics: %q", ics)
	}
}

// TestLoadIntoMemimap loads every account into the demo's IMAP server and
// reads it back over IMAP, as unibox will.
func TestLoadIntoMemimap(t *testing.T) {
	srv, err := memimap.Start(memimap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	attrs := map[string]imap.MailboxAttr{
		"": "", "archive": imap.MailboxAttrArchive, "trash": imap.MailboxAttrTrash, "sent": imap.MailboxAttrSent,
		"drafts": imap.MailboxAttrDrafts, "junk": imap.MailboxAttrJunk,
	}
	users, folders := Users(), Folders()
	for name, seeds := range Mailboxes(testNow) {
		login := users[name]
		extra := map[string]imap.MailboxAttr{}
		for f, use := range folders[name] {
			if f != "INBOX" {
				extra[f] = attrs[use]
			}
		}
		if err := srv.AddUser(login[0], login[1], extra); err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, s := range seeds {
			if _, err := srv.Append(login[0], s.Folder, s.Raw, s.Flags, s.Received); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			count[s.Folder]++
		}
		t.Run(name, func(t *testing.T) { readBack(t, srv.Addr(), login, folders[name], attrs, count) })
	}
}

func readBack(t *testing.T, addr string, login [2]string, folders map[string]string, attrs map[string]imap.MailboxAttr, count map[string]int) {
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(login[0], login[1]).Wait(); err != nil {
		t.Fatal(err)
	}
	list, err := c.List("", "*", &imap.ListOptions{ReturnSpecialUse: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(folders) {
		t.Errorf("LIST: %d folders, want %d", len(list), len(folders))
	}
	for _, l := range list {
		if use := folders[l.Mailbox]; use != "" && !slices.Contains(l.Attrs, attrs[use]) {
			t.Errorf("%s: attributes %v, want %s", l.Mailbox, l.Attrs, attrs[use])
		}
	}
	for folder, want := range count {
		sel, err := c.Select(folder, nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if int(sel.NumMessages) != want {
			t.Errorf("%s: %d messages, want %d", folder, sel.NumMessages, want)
		}
		var all imap.SeqSet
		all.AddRange(1, sel.NumMessages)
		msgs, err := c.Fetch(all, &imap.FetchOptions{
			Envelope: true, Flags: true, InternalDate: true, RFC822Size: true,
			BodyStructure: &imap.FetchItemBodyStructure{Extended: true},
		}).Collect()
		if err != nil {
			t.Fatalf("%s: fetch: %v", folder, err)
		}
		for _, m := range msgs {
			if m.Envelope == nil || m.Envelope.MessageID == "" || m.BodyStructure == nil {
				t.Errorf("%s #%d: envelope %+v", folder, m.SeqNum, m.Envelope)
			}
		}
	}
	if err := c.Logout().Wait(); err != nil && !errors.Is(err, io.EOF) {
		t.Error(err)
	}
}
