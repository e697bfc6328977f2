package binarytest

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
)

const dinnerID = "dinner-1@example.com"

// An agent drafts a reply to all through the real `unibox mcp`; it lands
// in the sender's Drafts (\Draft, in the thread) and nowhere else. The
// real TUI in tmux shows it to review: marked in the drafts view and on
// the row, the message it answers under it, and Carol (Cc'd by the mail
// answered, never written to) marked new while Bob (in Sent) is not. y
// sends it once: the recipient's INBOX and Sent hold it once, Drafts no
// longer does, and the original is \Answered. memimap and Dovecot.
func TestAgentDraftReviewedAndSent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	for _, c := range []struct {
		name  string
		world func(*testing.T, string) *replyWorld
		self  string
	}{{"memimap", replyMemWorld, "sam@example.com"}, {"dovecot", replyDovecotWorld, "alice@example.org"}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := c.world(t, "auto")
			w.seed(t, "sender", "Sent", imaptest.Mail{From: c.self, To: "Bob <bob@example.com>", Subject: "the boat",
				MessageID: "boat-1@example.com", Date: time.Now().Add(-48 * time.Hour), Body: "Saturday?"}.Bytes())
			w.seed(t, "sender", "INBOX", imaptest.Mail{From: "Bob <bob@example.com>", To: c.self, Headers: map[string]string{"Cc": "Carol <carol@example.com>"},
				Subject: "dinner?", MessageID: dinnerID, Date: time.Now().Add(-30 * time.Minute), Body: "Friday at eight?"}.Bytes())
			r := newSendRun(t, w, "false", "0s")

			cs := r.agent()
			var list agent.ListOut
			facetest.Call(t, cs, "list_messages", agent.ListIn{Limit: 20}, &list)
			id := ""
			for _, m := range list.Messages {
				if m.Subject == "dinner?" {
					id = m.ID
				}
			}
			if id == "" {
				t.Fatalf("list_messages has no dinner?: %+v", list.Messages)
			}
			var drafted struct {
				DraftID string `json:"draft_id"`
			}
			text := facetest.Call(t, cs, "draft_reply", map[string]any{"id": id, "body": "Friday works for me.", "reply_all": true}, &drafted)
			t.Logf("draft_reply {id: %q, body: %q, reply_all: true} answered:\n%s", id, "Friday works for me.", text)
			if drafted.DraftID == "" {
				t.Fatal("draft_reply gave no draft_id")
			}
			drafts := withHeader(w.folder(t, "sender", "Drafts"), "In-Reply-To", "<"+dinnerID+">")
			if len(drafts) != 1 || !slices.Contains(drafts[0].Flags, imap.FlagDraft) || !bytes.Contains(drafts[0].Raw, []byte("Friday works for me.")) {
				t.Fatalf("Drafts holds %d drafts in the thread: want one, \\Draft", len(drafts))
			}
			if n := w.smtp.Deliveries(); n != 0 {
				t.Fatalf("drafting delivered %d messages", n)
			}
			t.Logf("over IMAP, Drafts holds it with %v, In-Reply-To %s, References %s; SMTP deliveries: 0",
				drafts[0].Flags, header(drafts[0].Raw, "In-Reply-To"), header(drafts[0].Raw, "References"))

			s := r.start()
			s.waitFor("1 draft to review", 30*time.Second)
			s.waitFor("✎", 10*time.Second)
			s.keys("D")
			s.waitFor("agent", 20*time.Second)
			s.keys("Enter")
			s.waitFor("review · y send", 20*time.Second)
			review := s.waitFor("new recipient: carol@example.com", 20*time.Second)
			t.Logf("the review screen:\n%s", strings.Join(review, "\n"))
			if screen := strings.Join(s.capture(), "\n"); strings.Contains(screen, "new recipient: bob@example.com") {
				t.Fatalf("Bob, written to before, is marked new:\n%s", screen)
			}
			s.keys("G")
			s.waitFor("Friday at eight?", 10*time.Second) // the message it answers, under it
			s.keys("y")
			s.waitFor("sent: Re: dinner?", 30*time.Second)

			var replyID string
			eventually(t, "the reply in the recipient's INBOX and Sent, out of Drafts, the original \\Answered", 60*time.Second, func() bool {
				replies := withHeader(w.folder(t, "rcpt", "INBOX"), "In-Reply-To", "<"+dinnerID+">")
				if len(replies) == 0 {
					return false
				}
				replyID = header(replies[0].Raw, "Message-ID")
				orig := withHeader(w.folder(t, "sender", "INBOX"), "Message-ID", "<"+dinnerID+">")
				return len(withHeader(w.folder(t, "sender", "Sent"), "Message-ID", replyID)) > 0 &&
					len(withHeader(w.folder(t, "sender", "Drafts"), "In-Reply-To", "<"+dinnerID+">")) == 0 &&
					len(orig) == 1 && slices.Contains(orig[0].Flags, imap.FlagAnswered)
			})
			if n, sent := len(withHeader(w.folder(t, "rcpt", "INBOX"), "Message-ID", replyID)), len(withHeader(w.folder(t, "sender", "Sent"), "Message-ID", replyID)); n != 1 || sent != 1 || w.smtp.Deliveries() != 1 {
				t.Fatalf("INBOX %d, Sent %d, SMTP took %d: want 1 each", n, sent, w.smtp.Deliveries())
			}
			t.Logf("after y: the recipient's INBOX holds %s once, Sent once, Drafts none, the original \\Answered; SMTP deliveries: 1", replyID)
		})
	}
}

// agent runs the real `unibox mcp` on r's config and folders.
func (r *sendRun) agent() *mcp.ClientSession {
	r.t.Helper()
	cmd := exec.Command(r.bin, "mcp", "--config", r.cfg, "--timeout", "30s")
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + r.t.TempDir()}, r.env...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { cs.Close() })
	return cs
}
