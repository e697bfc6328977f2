package serveimap

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
	"unibox/model"
)

func TestAddAccount(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		user, pass := b.NewUser(t)
		cs := session(t, Options{})
		var out imapwire.AddAccountOut
		mustOK(t, "add_account", call(t, cs, "add_account", accountIn(b, user, pass), &out))
		if out.Account != "work" || !slices.Contains(out.Capabilities, "IMAP4rev1") {
			t.Fatalf("add_account out: %+v", out)
		}
		bad := accountIn(b, user, "wrong-secret-123")
		res := call(t, cs, "add_account", bad, nil)
		mustClass(t, "add_account", res, conn.ClassAuth)
		if strings.Contains(conn.ResultText(res), "wrong-secret-123") {
			t.Fatalf("the password leaked into the error: %s", conn.ResultText(res))
		}
	})
}

func TestNotProvisioned(t *testing.T) {
	cs := session(t, Options{})
	yes := true
	for tool, args := range map[string]any{
		"list_messages":   imapwire.ListMessagesIn{Account: "nobody"},
		"list_folders":    imapwire.AccountIn{Account: "nobody"},
		"check_account":   imapwire.AccountIn{Account: "nobody"},
		"get_message":     imapwire.GetMessageIn{Account: "nobody", UID: 1},
		"search":          imapwire.SearchIn{Account: "nobody", Query: "x"},
		"set_flags":       imapwire.SetFlagsIn{Account: "nobody", UIDs: []uint32{1}, Seen: &yes},
		"archive":         imapwire.SpecialMoveIn{Account: "nobody", UIDs: []uint32{1}},
		"move":            imapwire.MoveIn{Account: "nobody", UIDs: []uint32{1}, To: "X"},
		"append_message":  imapwire.AppendMessageIn{Account: "nobody", Special: "sent", Message: "x"},
		"delete_messages": imapwire.DeleteMessagesIn{Account: "nobody", Folder: "Drafts", UIDValidity: 1, UIDs: []uint32{1}},
		"get_part":        imapwire.GetPartIn{Account: "nobody", UID: 1},
		"fetch_threading": imapwire.FetchThreadingIn{Account: "nobody", UIDValidity: 1, UIDs: [][2]uint32{{1, 1}}},
		"special_folder":  imapwire.SpecialFolderIn{Account: "nobody", Special: "sent"},
	} {
		res := call(t, cs, tool, args, nil)
		mustClass(t, tool, res, conn.ClassNotProvisioned)
	}
}

func TestListFolders(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		b.Seed(t, user, "INBOX", mail("one", "a@x.org", time.Hour))
		b.Seed(t, user, "INBOX", mail("two", "a@x.org", time.Hour), imap.FlagSeen)
		var out imapwire.ListFoldersOut
		mustOK(t, "list_folders", call(t, cs, "list_folders", imapwire.AccountIn{Account: "work"}, &out))
		got := map[string]imapwire.Folder{}
		for _, f := range out.Folders {
			got[f.Name] = f
		}
		if in := got["INBOX"]; in.Total != 2 || in.Unread != 1 {
			t.Fatalf("INBOX counts: %+v", in)
		}
		for name, use := range map[string]string{"Archive": "archive", "Trash": "trash", "Sent": "sent", "Drafts": "drafts", "Junk": "junk"} {
			if got[name].SpecialUse != use {
				t.Errorf("%s special use = %q, want %q (%s)", name, got[name].SpecialUse, use, pretty(out))
			}
		}
	})
}

func TestListMessages(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		var uids []uint32
		for i := range 7 {
			flags := []imap.Flag{}
			if i%2 == 0 {
				flags = append(flags, imap.FlagSeen)
			}
			uids = append(uids, b.Seed(t, user, "INBOX", mail("msg "+string(rune('A'+i)), "Ann <ann@x.org>", time.Duration(7-i)*time.Hour), flags...))
		}
		var out imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Limit: 3}, &out))
		if len(out.Messages) != 3 || out.Total != 7 {
			t.Fatalf("limit 3 of 7: %s", pretty(out))
		}
		m := out.Messages[0]
		if m.UID != uids[6] || m.Subject != "msg G" || m.From != (imapwire.Address{Name: "Ann", Address: "ann@x.org"}) || !m.Seen {
			t.Fatalf("newest first: %s", pretty(m))
		}
		id, err := model.ParseMessageID(m.ID)
		if err != nil || id != (model.MessageID{Account: "work", Folder: "INBOX", UIDValidity: out.UIDValidity, UID: m.UID}) {
			t.Fatalf("id %q: %+v %v", m.ID, id, err)
		}
		if m.Date == "" || m.MessageID == "" || len(m.To) != 1 || m.Size == 0 {
			t.Fatalf("missing fields: %s", pretty(m))
		}
		// Paging with before_uid continues where the page ended.
		var page2 imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Limit: 3, BeforeUID: out.Messages[2].UID}, &page2))
		if len(page2.Messages) != 3 || page2.Messages[0].UID != uids[3] {
			t.Fatalf("page 2: %s", pretty(page2))
		}
		var unread imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", UnreadOnly: true}, &unread))
		if len(unread.Messages) != 3 {
			t.Fatalf("unread only: %s", pretty(unread))
		}
		for _, m := range unread.Messages {
			if m.Seen {
				t.Fatalf("unread_only returned a seen message: %s", pretty(m))
			}
		}
		res := call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Folder: "NoSuchFolder"}, nil)
		mustClass(t, "list_messages", res, conn.ClassTool)
	})
}

func TestGetMessageLeavesSeenUnset(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		raw := imaptest.Mail{From: "Bob <bob@x.org>", To: "me@x.org", Subject: "report", Date: time.Now(),
			Body: "see attached", Attach: map[string][]byte{"report.pdf": []byte(strings.Repeat("%PDF", 1000))}}.Bytes()
		uid := b.Seed(t, user, "INBOX", raw)
		var out imapwire.GetMessageOut
		mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uid}, &out))
		if !strings.Contains(out.Body, "see attached") || len(out.Attachments) != 1 || !out.HasAttachments {
			t.Fatalf("get_message: %s", pretty(out))
		}
		if a := out.Attachments[0]; a.Name != "report.pdf" || a.Size != 4000 {
			t.Fatalf("attachment: %+v", a)
		}
		var list imapwire.ListMessagesOut
		call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list)
		if len(list.Messages) != 1 || list.Messages[0].Seen || !list.Messages[0].HasAttachments {
			t.Fatalf("after get_message: %s", pretty(list))
		}
		res := call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: uid + 100}, nil)
		mustClass(t, "get_message", res, conn.ClassTool)
	})
}

func TestSearch(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		b.Seed(t, user, "INBOX", mail("quarterly numbers", "cfo@x.org", time.Hour))
		b.Seed(t, user, "INBOX", mail("lunch", "friend@y.org", time.Hour))
		b.Seed(t, user, "INBOX", imaptest.Mail{From: "z@z.org", Subject: "misc", Date: time.Now(), Body: "the pineapple plan"}.Bytes())
		// Each word anywhere, in any order; every word must be there.
		for q, want := range map[string]string{"quarterly": "quarterly numbers", "friend": "lunch", "pineapple": "misc",
			"numbers cfo": "quarterly numbers", "plan pineapple": "misc", "z@z.org plan": "misc", "pineapple lunch": ""} {
			var out imapwire.ListMessagesOut
			mustOK(t, "search", call(t, cs, "search", imapwire.SearchIn{Account: "work", Query: q}, &out))
			if want == "" && len(out.Messages) != 0 || want != "" && (len(out.Messages) != 1 || out.Messages[0].Subject != want) {
				t.Errorf("search %q: %s", q, pretty(out.Messages))
			}
		}
	})
}

// before_uid asks only below a uid (the part of a folder a store lacks):
// the matches above it are not spent on the page; 1 finds nothing.
func TestSearchBelowAUid(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		var uids []uint32
		for i := range 4 {
			uids = append(uids, b.Seed(t, user, "INBOX", mail(fmt.Sprintf("report %d", i), "cfo@x.org", time.Duration(4-i)*time.Hour)))
		}
		for _, tt := range []struct {
			before uint32
			want   []uint32
		}{{uids[2], uids[:2]}, {0, uids}, {1, nil}} {
			var out imapwire.ListMessagesOut
			mustOK(t, "search", call(t, cs, "search", imapwire.SearchIn{Account: "work", Query: "report", BeforeUID: tt.before}, &out))
			var got []uint32
			for _, m := range out.Messages {
				got = append(got, m.UID)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("before_uid %d: uids %v, want %v", tt.before, got, tt.want)
			}
		}
	})
}

func TestSetFlagsAbsoluteAndIdempotent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		u1 := b.Seed(t, user, "INBOX", mail("a", "a@x.org", time.Hour))
		u2 := b.Seed(t, user, "INBOX", mail("b", "a@x.org", time.Hour), imap.FlagSeen)
		yes, no := true, false
		// Never there: a shared Dovecot's uids run past any constant.
		gone := u2 + 1000
		for range 2 { // the same absolute request twice: same outcome, never a toggle
			var out imapwire.WriteOut
			mustOK(t, "set_flags", call(t, cs, "set_flags", imapwire.SetFlagsIn{Account: "work", UIDs: []uint32{u1, u2, gone}, Seen: &yes, Flagged: &yes}, &out))
			want := []imapwire.Result{{UID: u1, Status: imapwire.StatusDone}, {UID: u2, Status: imapwire.StatusDone}, {UID: gone, Status: imapwire.StatusAlreadyGone}}
			if !slices.Equal(out.Results, want) {
				t.Fatalf("results %s", pretty(out.Results))
			}
			var list imapwire.ListMessagesOut
			call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list)
			for _, m := range list.Messages {
				if !m.Seen || !m.Flagged {
					t.Fatalf("after set: %s", pretty(m))
				}
			}
		}
		var out imapwire.WriteOut
		mustOK(t, "set_flags", call(t, cs, "set_flags", imapwire.SetFlagsIn{Account: "work", UIDs: []uint32{u1}, Seen: &no}, &out))
		var list imapwire.ListMessagesOut
		call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list)
		for _, m := range list.Messages {
			if m.UID == u1 && (m.Seen || !m.Flagged) {
				t.Fatalf("seen=false must clear only \\Seen: %s", pretty(m))
			}
		}
	})
}

func TestArchiveTrashMove(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		u1 := b.Seed(t, user, "INBOX", mail("to archive", "a@x.org", time.Hour))
		u2 := b.Seed(t, user, "INBOX", mail("to trash", "a@x.org", time.Hour))
		u3 := b.Seed(t, user, "INBOX", mail("to move", "a@x.org", time.Hour))
		var out imapwire.WriteOut
		mustOK(t, "archive", call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{u1}}, &out))
		r := out.Results[0]
		if out.To != "Archive" || r.Status != imapwire.StatusMoved || r.DestUID == 0 || r.DestUIDValidity == 0 {
			t.Fatalf("archive: %s", pretty(out))
		}
		// Archiving again: the uid is gone, and it says so.
		mustOK(t, "archive", call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{u1}}, &out))
		if out.Results[0].Status != imapwire.StatusAlreadyGone {
			t.Fatalf("repeated archive: %s", pretty(out))
		}
		mustOK(t, "trash", call(t, cs, "trash", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{u2}}, &out))
		if out.To != "Trash" || out.Results[0].Status != imapwire.StatusMoved {
			t.Fatalf("trash: %s", pretty(out))
		}
		// Undo: move the archived message back by its destination uid.
		var back imapwire.WriteOut
		mustOK(t, "move", call(t, cs, "move", imapwire.MoveIn{Account: "work", Folder: "Archive", UIDs: []uint32{r.DestUID}, UIDValidity: r.DestUIDValidity, To: "INBOX"}, &back))
		if back.Results[0].Status != imapwire.StatusMoved {
			t.Fatalf("move back: %s", pretty(back))
		}
		// A destination that does not exist fails per uid, message untouched.
		mustOK(t, "move", call(t, cs, "move", imapwire.MoveIn{Account: "work", UIDs: []uint32{u3}, To: "Nowhere"}, &out))
		if out.Results[0].Status != imapwire.StatusFailed || out.Results[0].Error == "" {
			t.Fatalf("move to a missing folder: %s", pretty(out))
		}
		var inbox imapwire.ListMessagesOut
		call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &inbox)
		var subjects []string
		for _, m := range inbox.Messages {
			subjects = append(subjects, m.Subject)
		}
		slices.Sort(subjects)
		if !slices.Equal(subjects, []string{"to archive", "to move"}) {
			t.Fatalf("INBOX after the moves: %v", subjects)
		}
	})
}

func TestUIDValidityChangeRefusesWrite(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		uid := b.Seed(t, user, "INBOX", mail("x", "a@x.org", time.Hour))
		var list imapwire.ListMessagesOut
		call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list)
		res := call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}, UIDValidity: list.UIDValidity + 1}, nil)
		mustClass(t, "archive", res, conn.ClassTool)
		if !strings.Contains(conn.ResultText(res), "UIDVALIDITY changed") {
			t.Fatalf("error does not say why: %s", conn.ResultText(res))
		}
	})
}

// The server hangs up between calls: the provider reconnects by itself.
func TestServerHangsUpBetweenCalls(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		b.Seed(t, user, "INBOX", mail("x", "a@x.org", time.Hour))
		b.Proxy().Drop()
		var out imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &out))
		if len(out.Messages) != 1 {
			t.Fatalf("after a hang-up: %s", pretty(out))
		}
		b.Proxy().Drop()
		var chk imapwire.CheckAccountOut
		mustOK(t, "check_account", call(t, cs, "check_account", imapwire.AccountIn{Account: "work"}, &chk))
		if !chk.Reconnected {
			t.Fatalf("check_account did not report the reconnect: %+v", chk)
		}
	})
}

// A server that stops answering: check_account and list report timeout
// within the command deadline, instead of hanging.
func TestSilentServerTimesOut(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		// The deadline is every command's, LOGIN's too: Dovecot's LOGIN
		// took over 300 ms on a loaded 2-core CI run (add_account timed
		// out before the silence began), so it gets a second.
		const deadline = time.Second
		cs, _ := provisioned(t, b, Options{CommandTimeout: deadline})
		restore := b.Proxy().Silence()
		defer restore()
		for _, tool := range []string{"check_account", "list_messages"} {
			start := time.Now()
			var args any = imapwire.ListMessagesIn{Account: "work"}
			if tool == "check_account" {
				args = imapwire.AccountIn{Account: "work"}
			}
			res := call(t, cs, tool, args, nil)
			mustClass(t, tool, res, conn.ClassTimeout)
			if took := time.Since(start); took > 4*deadline {
				t.Errorf("%s took %s with a %s command deadline", tool, took, deadline)
			}
		}
	})
}

// A server that refuses connections is unavailable.
func TestRefusingServerUnavailable(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, _ := provisioned(t, b, Options{})
		up := b.Proxy().Down()
		defer up()
		res := call(t, cs, "check_account", imapwire.AccountIn{Account: "work"}, nil)
		mustClass(t, "check_account", res, conn.ClassUnavailable)
	})
}

func TestFindMessage(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		raw := imaptest.Mail{From: "a@x.org", Subject: "find me", Date: time.Now(), MessageID: "needle.42@unibox.test", Body: "x"}.Bytes()
		uid := b.Seed(t, user, "INBOX", raw)
		var out imapwire.FindMessageOut
		mustOK(t, "find_message", call(t, cs, "find_message", imapwire.FindMessageIn{Account: "work", MessageID: "<needle.42@unibox.test>"}, &out))
		if len(out.UIDs) != 1 || out.UIDs[0] != uid || out.Folder != "INBOX" {
			t.Fatalf("find in INBOX: %s", pretty(out))
		}
		var arch imapwire.WriteOut
		mustOK(t, "archive", call(t, cs, "archive", imapwire.SpecialMoveIn{Account: "work", UIDs: []uint32{uid}}, &arch))
		mustOK(t, "find_message", call(t, cs, "find_message", imapwire.FindMessageIn{Account: "work", Special: "archive", MessageID: "needle.42@unibox.test"}, &out))
		if len(out.UIDs) != 1 || out.UIDs[0] != arch.Results[0].DestUID || out.Folder != "Archive" {
			t.Fatalf("find in the archive: %s", pretty(out))
		}
		mustOK(t, "find_message", call(t, cs, "find_message", imapwire.FindMessageIn{Account: "work", MessageID: "absent@x"}, &out))
		if len(out.UIDs) != 0 {
			t.Fatalf("found an absent message: %s", pretty(out))
		}
	})
}
