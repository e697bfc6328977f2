package agent_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
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

// The real `unibox mcp` drafts a reply: it lands in Drafts over IMAP,
// threaded, in $XDG_DATA_HOME/unibox/drafts with its ledger record
// beside it, and nothing is sent, though the account could send.
func TestBinaryDraftReply(t *testing.T) {
	srv := facetest.Sam(t, "pw", map[string]imap.MailboxAttr{"Drafts": imap.MailboxAttrDrafts, "Sent": imap.MailboxAttrSent})
	orig := imaptest.Mail{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "lunch?", MessageID: "lunch-1@example.com", Date: time.Now(), Body: "Noon?"}.Bytes()
	if _, err := srv.Append("sam", "INBOX", orig, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	smtp := facetest.SMTP(t, srv, "pw")
	path := facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")+"\n"+facetest.Sending(smtp.Port(), ""))+
		"\n[agent]\nmax_drafts_per_hour = 5\n")
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "mcp", "--config", path, "--timeout", "10s")
	cmd.Env = []string{"UNIBOX_TEST_PW=pw", "GORACE=atexit_sleep_ms=0", "XDG_CACHE_HOME=" + os.Getenv("XDG_CACHE_HOME"),
		"XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME"), "XDG_DATA_HOME=" + os.Getenv("XDG_DATA_HOME")}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	if len(list.Messages) != 1 {
		t.Fatalf("list: %+v", list.Messages)
	}
	var out agent.DraftOut
	facetest.Call(t, cs, "draft_reply", agent.DraftReplyIn{ID: list.Messages[0].ID, Body: "Noon it is."}, &out)
	drafts := facetest.Folder(t, srv, "sam", "pw", "Drafts")
	if len(drafts) != 1 || !slices.Contains(drafts[0].Flags, imap.FlagDraft) || !strings.Contains(string(drafts[0].Raw), "In-Reply-To: <lunch-1@example.com>\r\n") {
		t.Fatalf("Drafts: %d messages", len(drafts))
	}
	root := filepath.Join(os.Getenv("XDG_DATA_HOME"), "unibox")
	for _, f := range []string{"drafts/" + out.DraftID + ".eml", "agent-drafts/" + out.DraftID + ".json"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	var ds agent.ListDraftsOut
	facetest.Call(t, cs, "list_drafts", agent.ListDraftsIn{}, &ds)
	if len(ds.Drafts) != 1 || ds.Drafts[0].Author != "agent" || ds.Drafts[0].DraftID != out.DraftID {
		t.Fatalf("list_drafts: %+v", ds.Drafts)
	}
	if smtp.Sessions() != 0 || len(facetest.Folder(t, srv, "sam", "pw", "Sent")) != 0 {
		t.Fatal("something was sent")
	}
}
