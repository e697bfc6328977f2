package serveimap

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
	"unibox/model"
)

// threadedMail is a message of a conversation: its own id, the id it
// answers, and the References a mailer writes (the parent's References
// and the parent).
func threadedMail(subject, id, inReplyTo string, refs []string, age time.Duration) []byte {
	h := map[string]string{}
	if inReplyTo != "" {
		h["In-Reply-To"] = "<" + inReplyTo + ">"
	}
	if len(refs) > 0 {
		h["References"] = "<" + strings.Join(refs, ">\r\n <") + ">"
	}
	return imaptest.Mail{From: "Ann Example <ann@example.org>", To: "me@example.org", Subject: subject, MessageID: id,
		Date: time.Now().Add(-age), Body: "Hello,\nthis is " + subject + ".\n", Headers: h}.Bytes()
}

// seedConversations fills folder with n messages in conversations as mail
// has them: conversations of one to a dozen messages (3 on average),
// several going on at once, each answer replying to a message of its
// conversation (References: the parent's chain and the parent), with ids
// the length of a big provider's (~60 bytes), two recipients, text and
// HTML (one in ten with an attachment). It
// returns how many References ids the messages hold on average.
func seedConversations(t testing.TB, b imaptest.Backend, user, folder string, n int) float64 {
	r := rand.New(rand.NewPCG(1, 2))
	type msg struct {
		id   string
		refs []string
	}
	var open [][]msg // conversations still going on
	refs := 0
	for i := range n {
		id := fmt.Sprintf("CAF%016x%016x=Q%08x@mail.gmail.com", r.Uint64(), r.Uint64(), i)
		m := msg{id: id}
		parent := ""
		if len(open) > 0 && r.IntN(3) > 0 {
			c := r.IntN(len(open))
			p := open[c][r.IntN(len(open[c]))]
			parent = p.id
			m.refs = append(slices.Clone(p.refs), p.id)
			open[c] = append(open[c], m)
			if r.IntN(3) == 0 { // the conversation ends
				open = slices.Delete(open, c, c+1)
			}
		} else {
			open = append(open, []msg{m})
			if len(open) > 8 {
				open = open[1:]
			}
		}
		refs += len(m.refs)
		raw := imaptest.Mail{From: "Ann Example <ann@example.org>", To: "Me Myself <me@example.org>, Bo Other <bo@example.net>",
			Subject: fmt.Sprintf("Re: the plans for topic %d", i), MessageID: id, Date: time.Now().Add(-time.Duration(n-i) * time.Minute),
			Body: "Hello.\n", HTML: "<p>Hello.</p>", Headers: map[string]string{}}
		if i%10 == 0 {
			raw.Attach = map[string][]byte{"notes.pdf": []byte("%PDF-1.4 notes")}
		}
		if parent != "" {
			raw.Headers["In-Reply-To"] = "<" + parent + ">"
			raw.Headers["References"] = "<" + strings.Join(m.refs, ">\r\n <") + ">"
		}
		b.Seed(t, user, folder, raw.Bytes())
	}
	return float64(refs) / float64(n)
}

// A listing and a sync carry each message's raw threading ids, read from
// the envelope (Message-ID, In-Reply-To) and from References fetched in
// the same FETCH; a hostile References (5,000 ids, a cycle, junk) is cut
// to the first and the last 50 ids.
func TestThreadingIDsCarried(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		b.Seed(t, user, "INBOX", threadedMail("root", "root@x", "", nil, 3*time.Hour))
		b.Seed(t, user, "INBOX", threadedMail("Re: root", "r1@x", "root@x", []string{"root@x"}, 2*time.Hour))
		b.Seed(t, user, "INBOX", threadedMail("Re: root", "r2@x", "r1@x", []string{"root@x", "r1@x"}, time.Hour))
		var huge []string
		for i := range 5000 {
			huge = append(huge, fmt.Sprintf("h%d@x", i))
		}
		huge = append(huge, "r2@x", "junk <bad@x") // "<junk <bad@x>": not an id, skipped
		b.Seed(t, user, "INBOX", threadedMail("hostile", "hostile@x", "hostile@x", huge, 0))

		var out imapwire.SyncOut
		mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work", Folder: "INBOX"}, &out))
		var list imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list))
		for what, msgs := range map[string][]imapwire.Message{"sync": out.New, "list": list.Messages} {
			got := map[string]*imapwire.ThreadHeaders{}
			for _, m := range msgs {
				if m.Threading == nil {
					t.Fatalf("%s: %s came without its threading ids", what, m.Subject)
				}
				got[m.Threading.MessageID] = m.Threading
			}
			if r2 := got["r2@x"]; r2 == nil || r2.InReplyTo != "r1@x" || !slices.Equal(r2.References, []string{"root@x", "r1@x"}) {
				t.Fatalf("%s: r2's ids %+v", what, r2)
			}
			if root := got["root@x"]; root == nil || root.InReplyTo != "" || len(root.References) != 0 {
				t.Fatalf("%s: root's ids %+v", what, root)
			}
			h := got["hostile@x"]
			if h == nil || len(h.References) != model.MaxReferences || h.References[0] != "h0@x" || h.References[len(h.References)-1] != "r2@x" {
				t.Fatalf("%s: the hostile References: %+v", what, h)
			}
		}
	})
}

// fetchBytes is what one FETCH of every message of INBOX with opts costs
// on the wire, both ways.
func fetchBytes(t testing.TB, b imaptest.Backend, user, pass string, opts *imap.FetchOptions) int64 {
	var n atomic.Int64
	dial := countingDial(&n)
	nc, err := dial(t.Context(), "tcp", fmt.Sprintf("%s:%d", b.Host(), b.Port()))
	if err != nil {
		t.Fatal(err)
	}
	c := imapclient.New(nc, nil)
	defer c.Close()
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	before := n.Load()
	all := imap.SeqSet{}
	all.AddRange(1, 0)
	if _, err := c.Fetch(all, opts).Collect(); err != nil {
		t.Fatal(err)
	}
	return n.Load() - before
}

// What fetching References with the envelope adds to a first sync's
// IMAP bytes, on a folder of conversations as mail has them; the figures
// are logged for the note. The target is 10 %; on memimap's small
// envelopes it is about 17 % (44 bytes a message for the item's name and
// an empty literal, ~75 a References id), which a byte range cannot cut
// (real References are shorter than any useful range). The bound here
// guards what would be a regression: the whole header, or ids unbounded.
func TestThreadingFetchCost(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		user, pass := b.NewUser(t)
		refs := seedConversations(t, b, user, "INBOX", 400)
		plain := *fetchSummary
		plain.BodySection = nil
		without := fetchBytes(t, b, user, pass, &plain)
		with := fetchBytes(t, b, user, pass, fetchSummary)
		ratio := float64(with) / float64(without)
		t.Logf("%s: first FETCH of 400 messages (%.1f References ids each on average): %d bytes without References, %d with (%.3fx)",
			b.Name(), refs, without, with, ratio)
		for _, size := range []uint32{2048, 512, 256} {
			ranged := *fetchSummary
			sec := *referencesSection
			sec.Partial = &imap.SectionPartial{Offset: 0, Size: int64(size)}
			ranged.BodySection = []*imap.FetchItemBodySection{&sec}
			n := fetchBytes(t, b, user, pass, &ranged)
			t.Logf("%s: with <0.%d>: %d bytes (%.3fx)", b.Name(), size, n, float64(n)/float64(without))
		}
		if ratio > 1.25 {
			t.Errorf("References add %.1f %% to a first sync's FETCH, over the 25 %% bound", (ratio-1)*100)
		}
	})
}

// fetch_threading reads the threading ids of stored mail from its headers
// alone (folded lines, a hostile References cut to 51 ids), answers
// nothing for another UIDVALIDITY, and refuses more than 1,000 uids with
// the field and the limit named.
func TestFetchThreading(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		first := b.Seed(t, user, "INBOX", threadedMail("root", "root@x", "", nil, time.Hour))
		uid := b.Seed(t, user, "INBOX", threadedMail("Re: root", "r1@x", "root@x", []string{"root@x", "mid@x"}, 0))
		var huge []string
		for i := range 5000 {
			huge = append(huge, fmt.Sprintf("h%d@x", i))
		}
		b.Seed(t, user, "INBOX", threadedMail("hostile", "hostile@x", "", huge, 0))
		var sync imapwire.SyncOut
		mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work"}, &sync))

		var out imapwire.FetchThreadingOut
		mustOK(t, "fetch_threading", call(t, cs, "fetch_threading", imapwire.FetchThreadingIn{Account: "work", UIDValidity: sync.UIDValidity,
			UIDs: [][2]uint32{{first, uid + 1}}}, &out))
		if len(out.Messages) != 3 {
			t.Fatalf("%d messages: %s", len(out.Messages), pretty(out))
		}
		r1 := out.Messages[1].Threading
		if out.Messages[1].UID != uid || r1.MessageID != "r1@x" || r1.InReplyTo != "root@x" || !slices.Equal(r1.References, []string{"root@x", "mid@x"}) {
			t.Fatalf("r1: %s", pretty(out.Messages[1]))
		}
		if h := out.Messages[2].Threading; len(h.References) != model.MaxReferences || h.MessageID != "hostile@x" {
			t.Fatalf("hostile: %d references, id %q", len(h.References), h.MessageID)
		}
		mustOK(t, "fetch_threading", call(t, cs, "fetch_threading", imapwire.FetchThreadingIn{Account: "work", UIDValidity: sync.UIDValidity + 1,
			UIDs: [][2]uint32{{first, uid + 1}}}, &out))
		if len(out.Messages) != 0 || out.UIDValidity != sync.UIDValidity {
			t.Fatalf("another UIDVALIDITY answered %s", pretty(out))
		}
		res := call(t, cs, "fetch_threading", imapwire.FetchThreadingIn{Account: "work", UIDValidity: 1, UIDs: [][2]uint32{{1, 1001}}}, nil)
		mustClass(t, "fetch_threading", res, conn.ClassTool)
		if text := conn.ResultText(res); !strings.Contains(text, "uids") || !strings.Contains(text, "1000") {
			t.Fatalf("the refusal does not name the field and the limit: %s", text)
		}
	})
}

// What syncing Sent for threading costs: the first sync of a Sent folder
// of 200 replies (sync_folder, in pages of 200, as the app does), in
// IMAP bytes and time, beside the first sync of an INBOX of 400, in the
// same run; logged for the note.
func TestSentSyncCost(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		var n atomic.Int64
		cs, user := provisioned(t, b, Options{Dial: countingDial(&n)})
		seedConversations(t, b, user, "INBOX", 400)
		seedConversations(t, b, user, "Sent", 200)
		first := func(folder string) (int64, time.Duration) {
			before, start := n.Load(), time.Now()
			in := imapwire.SyncIn{Account: "work", Folder: folder, Limit: 200}
			for {
				var out imapwire.SyncOut
				mustOK(t, "sync_folder", call(t, cs, "sync_folder", in, &out))
				if !out.More {
					break
				}
				in.UIDValidity, in.BeforeUID = out.UIDValidity, out.New[len(out.New)-1].UID
			}
			return n.Load() - before, time.Since(start)
		}
		inboxBytes, inboxTook := first("INBOX")
		sentBytes, sentTook := first("Sent")
		t.Logf("%s: first sync of INBOX (400): %d bytes in %s; of Sent (200): %d bytes in %s (%.2fx the INBOX's bytes)",
			b.Name(), inboxBytes, inboxTook.Round(time.Millisecond), sentBytes, sentTook.Round(time.Millisecond), float64(sentBytes)/float64(inboxBytes))
		if sentBytes > inboxBytes {
			t.Errorf("Sent of 200 cost more bytes than INBOX of 400")
		}
	})
}
