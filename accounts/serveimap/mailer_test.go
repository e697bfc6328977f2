package serveimap

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// folderFlags is uid → flags of folder as another client sees it.
func folderFlags(t *testing.T, c *imapclient.Client, folder string) map[uint32][]imap.Flag {
	t.Helper()
	if _, err := c.Select(folder, nil).Wait(); err != nil {
		t.Fatalf("select %s: %v", folder, err)
	}
	all := imap.SeqSet{}
	all.AddRange(1, 0)
	bufs, err := c.Fetch(all, &imap.FetchOptions{UID: true, Flags: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32][]imap.Flag{}
	for _, b := range bufs {
		out[uint32(b.UID)] = b.Flags
	}
	return out
}

// A reply's copy goes to Sent, a postponed draft to Drafts, each found by
// special use; the uid is APPENDUID's, the flags are stored, and
// find_message in the same special folder finds the Message-ID.
func TestAppendToSpecialFolders(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for _, tc := range []struct {
			special, folder string
			flags           []string
		}{
			{"sent", "Sent", []string{`\Seen`}},
			{"drafts", "Drafts", []string{`\Draft`, `\Seen`}},
		} {
			id := fmt.Sprintf("%s.%d@unibox.test", tc.special, time.Now().UnixNano())
			raw := imaptest.Mail{From: "me@example.org", To: "you@example.org", Subject: "to " + tc.special, Date: time.Now(), MessageID: id, Body: "hi"}.Bytes()
			var out imapwire.AppendMessageOut
			mustOK(t, "append_message", call(t, cs, "append_message", imapwire.AppendMessageIn{Account: "work", Special: tc.special, Message: string(raw), Flags: tc.flags}, &out))
			if out.Folder != tc.folder || out.UID == 0 || out.UIDValidity == 0 {
				t.Fatalf("append to %s: %+v", tc.special, out)
			}
			flags := folderFlags(t, b.Client(t, user), tc.folder)
			got, ok := flags[out.UID]
			if !ok || len(flags) != 1 {
				t.Fatalf("%s holds %v, want only uid %d", tc.folder, flags, out.UID)
			}
			for _, f := range tc.flags {
				if !slices.Contains(got, imap.Flag(f)) {
					t.Fatalf("uid %d in %s has %v, want %v", out.UID, tc.folder, got, tc.flags)
				}
			}
			var found imapwire.FindMessageOut
			mustOK(t, "find_message", call(t, cs, "find_message", imapwire.FindMessageIn{Account: "work", Special: tc.special, MessageID: "<" + id + ">"}, &found))
			if found.Folder != tc.folder || !slices.Equal(found.UIDs, []uint32{out.UID}) || found.UIDValidity != out.UIDValidity {
				t.Fatalf("find_message in %s: %+v, want uid %d", tc.special, found, out.UID)
			}
		}
	})
}

// Without SPECIAL-USE the folder is the first of the usual names that
// exists, in their order (not the server's listing order); sent_folder
// and drafts_folder override both.
func TestAppendFindsSentByName(t *testing.T) {
	for _, tc := range []struct {
		name    string
		folders []string
		cfg     func(*imapwire.AddAccountIn)
		special string
		want    string
	}{
		{"Sent", []string{"Sent", "Sent Items"}, nil, "sent", "Sent"},
		{"iCloud", []string{"Sent Messages"}, nil, "sent", "Sent Messages"},
		{"iCloud before Outlook", []string{"Sent Items", "Sent Messages"}, nil, "sent", "Sent Messages"},
		{"Outlook", []string{"Sent Items", "INBOX.Sent"}, nil, "sent", "Sent Items"},
		{"Gmail", []string{"[Gmail]/Sent Mail", "INBOX.Sent"}, nil, "sent", "[Gmail]/Sent Mail"},
		{"Courier", []string{"INBOX.Sent"}, nil, "sent", "INBOX.Sent"},
		{"Drafts", []string{"Drafts", "INBOX.Drafts"}, nil, "drafts", "Drafts"},
		{"Gmail drafts", []string{"INBOX.Drafts", "[Gmail]/Drafts"}, nil, "drafts", "[Gmail]/Drafts"},
		{"Courier drafts", []string{"INBOX.Drafts"}, nil, "drafts", "INBOX.Drafts"},
		{"sent_folder", []string{"Sent", "Outbox copies"}, func(in *imapwire.AddAccountIn) { in.SentFolder = "Outbox copies" }, "sent", "Outbox copies"},
		{"drafts_folder", []string{"Drafts", "Brouillons"}, func(in *imapwire.AddAccountIn) { in.DraftsFolder = "Brouillons" }, "drafts", "Brouillons"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := imaptest.NewMem(t, memimap.Options{NoSpecialUse: true})
			folders := map[string]imap.MailboxAttr{}
			for _, f := range tc.folders {
				folders[f] = ""
			}
			if err := b.Srv.AddUser("ann", "ann-pw", folders); err != nil {
				t.Fatal(err)
			}
			in := accountIn(b, "ann", "ann-pw")
			if tc.cfg != nil {
				tc.cfg(&in)
			}
			cs := session(t, Options{})
			mustOK(t, "add_account", call(t, cs, "add_account", in, nil))
			var out imapwire.AppendMessageOut
			mustOK(t, "append_message", call(t, cs, "append_message", imapwire.AppendMessageIn{Account: "work", Special: tc.special, Message: string(mail("copy", "me@example.org", 0))}, &out))
			if out.Folder != tc.want {
				t.Fatalf("appended to %q, want %q", out.Folder, tc.want)
			}
			if n := len(folderFlags(t, b.Client(t, "ann"), tc.want)); n != 1 {
				t.Fatalf("%s holds %d messages, want 1", tc.want, n)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		b := imaptest.NewMem(t, memimap.Options{NoSpecialUse: true})
		if err := b.Srv.AddUser("ann", "ann-pw", map[string]imap.MailboxAttr{"Archive": ""}); err != nil {
			t.Fatal(err)
		}
		cs := session(t, Options{})
		mustOK(t, "add_account", call(t, cs, "add_account", accountIn(b, "ann", "ann-pw"), nil))
		res := call(t, cs, "append_message", imapwire.AppendMessageIn{Account: "work", Special: "sent", Message: string(mail("copy", "me@example.org", 0))}, nil)
		mustClass(t, "append_message", res, conn.ClassTool)
		if !strings.Contains(conn.ResultText(res), "sent_folder") {
			t.Fatalf("the refusal does not say how to set the folder: %s", conn.ResultText(res))
		}
	})
}

// Without UIDPLUS the server does not say the uid: 0, and the folder's
// UIDVALIDITY still comes back.
func TestAppendWithoutUIDPlus(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{NoUIDPlus: true})
	cs, user := provisioned(t, b, Options{})
	var out imapwire.AppendMessageOut
	mustOK(t, "append_message", call(t, cs, "append_message", imapwire.AppendMessageIn{Account: "work", Folder: "Sent", Message: string(mail("copy", "me@example.org", 0))}, &out))
	if out.UID != 0 || out.UIDValidity == 0 || out.Folder != "Sent" {
		t.Fatalf("append without UIDPLUS: %+v", out)
	}
	if n := len(folderFlags(t, b.Client(t, user), "Sent")); n != 1 {
		t.Fatalf("Sent holds %d", n)
	}
}

// Bad input is refused before anything is sent, naming the field.
func TestAppendRefusals(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, user := provisioned(t, b, Options{MaxAppendBytes: 1000})
	ok := string(mail("copy", "me@example.org", 0))
	for _, tc := range []struct {
		name string
		in   imapwire.AppendMessageIn
		want string
	}{
		{"too big", imapwire.AppendMessageIn{Folder: "Sent", Message: ok + strings.Repeat("x", 1000)}, "message: "},
		{"empty", imapwire.AppendMessageIn{Folder: "Sent"}, "message is empty"},
		{"both", imapwire.AppendMessageIn{Folder: "Sent", Special: "sent", Message: ok}, "not both"},
		{"neither", imapwire.AppendMessageIn{Message: ok}, "not neither"},
		{"special", imapwire.AppendMessageIn{Special: "trash", Message: ok}, "special"},
		{"flag", imapwire.AppendMessageIn{Folder: "Sent", Message: ok, Flags: []string{`\Seen`, "a b"}}, "flags[1]"},
		{"system flag", imapwire.AppendMessageIn{Folder: "Sent", Message: ok, Flags: []string{`\Recent`}}, "flags[0]"},
		{"date", imapwire.AppendMessageIn{Folder: "Sent", Message: ok, Date: "yesterday"}, "date"},
	} {
		tc.in.Account = "work"
		res := call(t, cs, "append_message", tc.in, nil)
		mustClass(t, tc.name, res, conn.ClassTool)
		if !strings.Contains(conn.ResultText(res), tc.want) {
			t.Errorf("%s: %s, want it to name %q", tc.name, conn.ResultText(res), tc.want)
		}
	}
	if n := len(folderFlags(t, b.Client(t, user), "Sent")); n != 0 {
		t.Fatalf("refused appends stored %d messages", n)
	}
}

// The server stores the message and hangs up before answering: the
// outcome is unknown, said so in structured form, and the APPEND is not
// sent again (one copy).
func TestAppendDropAfterSendIsUnknownNotRetried(t *testing.T) {
	faults := &memimap.Faults{}
	b := imaptest.NewMem(t, memimap.Options{Faults: faults})
	cs, user := provisioned(t, b, Options{})
	faults.DropAfter("APPEND", 1)
	res := call(t, cs, "append_message", imapwire.AppendMessageIn{Account: "work", Special: "sent", Message: string(mail("once", "me@example.org", 0))}, nil)
	if !res.IsError {
		t.Fatalf("a dropped APPEND succeeded: %s", conn.ResultText(res))
	}
	var info imapwire.ErrorInfo
	if err := imapwire.Decode(res, &info); err != nil || info.Outcome != imapwire.OutcomeUnknown {
		t.Fatalf("outcome %q (%v), want unknown: %s", info.Outcome, err, conn.ResultText(res))
	}
	if n := len(folderFlags(t, b.Client(t, user), "Sent")); n != 1 {
		t.Fatalf("Sent holds %d copies, want 1", n)
	}
}

// \Answered and $Forwarded are absolute: set, read back, cleared.
func TestSetFlagsAnsweredForwarded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		uid := b.Seed(t, user, "INBOX", mail("original", "ann@example.org", time.Hour))
		yes, no := true, false
		for _, step := range []struct {
			in   imapwire.SetFlagsIn
			want map[imap.Flag]bool
		}{
			{imapwire.SetFlagsIn{Answered: &yes}, map[imap.Flag]bool{imap.FlagAnswered: true, imap.FlagForwarded: false}},
			{imapwire.SetFlagsIn{Forwarded: &yes}, map[imap.Flag]bool{imap.FlagAnswered: true, imap.FlagForwarded: true}},
			{imapwire.SetFlagsIn{Answered: &yes, Forwarded: &yes}, map[imap.Flag]bool{imap.FlagAnswered: true, imap.FlagForwarded: true}},
			{imapwire.SetFlagsIn{Answered: &no}, map[imap.Flag]bool{imap.FlagAnswered: false, imap.FlagForwarded: true}},
			{imapwire.SetFlagsIn{Forwarded: &no}, map[imap.Flag]bool{imap.FlagAnswered: false, imap.FlagForwarded: false}},
		} {
			in := step.in
			in.Account, in.UIDs = "work", []uint32{uid}
			var out imapwire.WriteOut
			mustOK(t, "set_flags", call(t, cs, "set_flags", in, &out))
			if len(out.Results) != 1 || out.Results[0].Status != imapwire.StatusDone {
				t.Fatalf("set_flags: %s", pretty(out))
			}
			got := folderFlags(t, b.Client(t, user), "INBOX")[uid]
			for f, want := range step.want {
				if slices.Contains(got, f) != want {
					t.Fatalf("after %s: flags %v, want %s %v", pretty(step.in), got, f, want)
				}
			}
		}
	})
}

// A folder whose PERMANENTFLAGS lack \* and $Forwarded cannot keep the
// keyword: each uid says so, failed, and nothing is stored.
func TestSetFlagsForwardedNotKept(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{NoKeywords: true})
	cs, user := provisioned(t, b, Options{})
	uid := b.Seed(t, user, "INBOX", mail("original", "ann@example.org", time.Hour))
	yes := true
	var out imapwire.WriteOut
	mustOK(t, "set_flags", call(t, cs, "set_flags", imapwire.SetFlagsIn{Account: "work", UIDs: []uint32{uid}, Answered: &yes, Forwarded: &yes}, &out))
	if len(out.Results) != 1 || out.Results[0].Status != imapwire.StatusFailed || !strings.Contains(out.Results[0].Error, "$Forwarded") {
		t.Fatalf("set_flags forwarded where it cannot be kept: %s", pretty(out))
	}
	if got := folderFlags(t, b.Client(t, user), "INBOX")[uid]; len(got) != 0 {
		t.Fatalf("flags %v stored, want none", got)
	}
	// \Answered alone is a system flag: kept.
	mustOK(t, "set_flags", call(t, cs, "set_flags", imapwire.SetFlagsIn{Account: "work", UIDs: []uint32{uid}, Answered: &yes}, &out))
	if out.Results[0].Status != imapwire.StatusDone || !slices.Contains(folderFlags(t, b.Client(t, user), "INBOX")[uid], imap.FlagAnswered) {
		t.Fatalf("answered: %s", pretty(out))
	}
}

// delete_messages removes exactly the uids asked: another message marked
// \Deleted by someone else stays, as does every other message.
func TestDeleteMessagesExactly(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		var uids []uint32
		for i := range 4 {
			uids = append(uids, b.Seed(t, user, "Drafts", mail(fmt.Sprintf("draft %d", i), "me@example.org", time.Hour)))
		}
		other := b.Client(t, user)
		folderFlags(t, other, "Drafts")
		marked := imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}
		if err := other.Store(imap.UIDSetNum(imap.UID(uids[3])), &marked, nil).Close(); err != nil {
			t.Fatal(err)
		}
		var list imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Folder: "Drafts"}, &list))
		var out imapwire.WriteOut
		mustOK(t, "delete_messages", call(t, cs, "delete_messages", imapwire.DeleteMessagesIn{Account: "work", Folder: "Drafts",
			UIDValidity: list.UIDValidity, UIDs: []uint32{uids[0], uids[2], 9999}}, &out))
		want := map[uint32]string{uids[0]: imapwire.StatusDone, uids[2]: imapwire.StatusDone, 9999: imapwire.StatusAlreadyGone}
		for _, r := range out.Results {
			if want[r.UID] != r.Status {
				t.Fatalf("delete_messages: %s", pretty(out))
			}
			delete(want, r.UID)
		}
		if len(want) != 0 {
			t.Fatalf("no result for %v: %s", want, pretty(out))
		}
		left := folderFlags(t, b.Client(t, user), "Drafts")
		if _, ok := left[uids[1]]; !ok || len(left) != 2 {
			t.Fatalf("left in Drafts: %v, want uids %d and %d", left, uids[1], uids[3])
		}
		if _, ok := left[uids[3]]; !ok {
			t.Fatalf("the message someone else marked deleted was expunged: %v", left)
		}
		res := call(t, cs, "delete_messages", imapwire.DeleteMessagesIn{Account: "work", Folder: "Drafts", UIDValidity: list.UIDValidity + 1, UIDs: []uint32{uids[1]}}, nil)
		mustClass(t, "delete_messages with another UIDVALIDITY", res, conn.ClassTool)
		if n := len(folderFlags(t, b.Client(t, user), "Drafts")); n != 2 {
			t.Fatalf("a refused delete changed the folder: %d left", n)
		}
	})
}

// Without UIDPLUS, delete_messages refuses: a plain EXPUNGE would take
// every message marked \Deleted with it.
func TestDeleteMessagesRefusedWithoutUIDPlus(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{NoUIDPlus: true})
	cs, user := provisioned(t, b, Options{})
	uid := b.Seed(t, user, "Drafts", mail("draft", "me@example.org", time.Hour))
	var list imapwire.ListMessagesOut
	mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Folder: "Drafts"}, &list))
	res := call(t, cs, "delete_messages", imapwire.DeleteMessagesIn{Account: "work", Folder: "Drafts", UIDValidity: list.UIDValidity, UIDs: []uint32{uid}}, nil)
	mustClass(t, "delete_messages", res, conn.ClassTool)
	if !strings.Contains(conn.ResultText(res), "UIDPLUS") {
		t.Fatalf("refusal: %s", conn.ResultText(res))
	}
	flags := folderFlags(t, b.Client(t, user), "Drafts")
	if got, ok := flags[uid]; !ok || slices.Contains(got, imap.FlagDeleted) {
		t.Fatalf("the refused delete touched the draft: %v", flags)
	}
}

// slowConn sends at most rate bytes a second: a slow uplink.
type slowConn struct {
	net.Conn
	rate int
}

func (c *slowConn) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		chunk := b[:min(len(b), c.rate/20)]
		time.Sleep(50 * time.Millisecond)
		w, err := c.Conn.Write(chunk)
		n += w
		if err != nil {
			return n, err
		}
		b = b[len(chunk):]
	}
	return n, nil
}

// An APPEND on a slow uplink is given the time its message takes to go
// out, on top of the command deadline: a big forward is not cut off with
// its outcome unknown.
func TestAppendOnASlowUplink(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	d := &net.Dialer{}
	slow := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &slowConn{Conn: c, rate: 256 << 10}, nil
	}
	// 400 KiB at 256 KiB/s: about 1.6 s, three times the command deadline.
	cs, user := provisioned(t, b, Options{Dial: slow, CommandTimeout: 500 * time.Millisecond})
	msg := "Subject: big\r\n\r\n" + strings.Repeat(strings.Repeat("x", 76)+"\r\n", 400<<10/78)
	start := time.Now()
	var out imapwire.AppendMessageOut
	mustOK(t, "append_message", call(t, cs, "append_message", imapwire.AppendMessageIn{Account: "work", Special: "sent", Message: msg}, &out))
	if took := time.Since(start); took < 500*time.Millisecond {
		t.Fatalf("the upload took %s: the link was not slow, the test proves nothing", took)
	}
	if n := len(folderFlags(t, b.Client(t, user), "Sent")); n != 1 {
		t.Fatalf("Sent holds %d", n)
	}
}
