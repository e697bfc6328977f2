package serveimap

import (
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

// The marks a row shows come from the message's flags: \Answered, and the
// $Forwarded keyword in whatever case the server keeps it. Every listing
// carries them (list_messages, get_message, a first sync's envelopes),
// and an incremental sync's flag states carry a keyword set since.
func TestListingCarriesAnsweredAndForwarded(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		type marks struct{ answered, forwarded bool }
		want := map[uint32]marks{}
		for _, s := range []struct {
			subject string
			flags   []imap.Flag
			marks
		}{
			{"plain", nil, marks{}},
			{"replied", []imap.Flag{imap.FlagSeen, imap.FlagAnswered}, marks{answered: true}},
			{"forwarded", []imap.Flag{imap.FlagSeen, imap.FlagForwarded}, marks{forwarded: true}},
			{"forwarded, lower case", []imap.Flag{"$forwarded"}, marks{forwarded: true}},
			{"both", []imap.Flag{imap.FlagAnswered, "$FORWARDED"}, marks{true, true}},
		} {
			want[b.Seed(t, user, "INBOX", mail(s.subject, "ann@example.org", time.Hour), s.flags...)] = s.marks
		}
		var list imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work", Limit: 10}, &list))
		if len(list.Messages) != len(want) {
			t.Fatalf("list_messages: %s", pretty(list))
		}
		for _, m := range list.Messages {
			if got := (marks{m.Answered, m.Forwarded}); got != want[m.UID] {
				t.Errorf("list_messages %q: answered %v forwarded %v, want %+v", m.Subject, got.answered, got.forwarded, want[m.UID])
			}
			var got imapwire.GetMessageOut
			mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: m.UID}, &got))
			if (marks{got.Answered, got.Forwarded}) != want[m.UID] {
				t.Errorf("get_message %q: answered %v forwarded %v, want %+v", m.Subject, got.Answered, got.Forwarded, want[m.UID])
			}
		}
		var first imapwire.SyncOut
		mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work", Limit: 10}, &first))
		if len(first.New) != len(want) || first.More {
			t.Fatalf("first sync: %s", pretty(first))
		}
		var plain uint32
		for _, m := range first.New {
			if got := (marks{m.Answered, m.Forwarded}); got != want[m.UID] {
				t.Errorf("first sync %q: answered %v forwarded %v, want %+v", m.Subject, got.answered, got.forwarded, want[m.UID])
			}
			if m.Subject == "plain" {
				plain = m.UID
			}
		}

		// Another client forwards the plain one: the next sync says so.
		other := b.Client(t, user)
		if _, err := other.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		if err := other.Store(imap.UIDSetNum(imap.UID(plain)), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagForwarded}}, nil).Close(); err != nil {
			t.Fatal(err)
		}
		var next imapwire.SyncOut
		mustOK(t, "sync_folder", call(t, cs, "sync_folder", imapwire.SyncIn{Account: "work", Limit: 10, UIDValidity: first.UIDValidity,
			UIDNext: first.UIDNext, HighestModSeq: first.HighestModSeq, Held: uint32(len(want))}, &next))
		found := false
		for _, f := range next.Flags {
			if f.UID == plain {
				found = true
				if !f.Forwarded || f.Answered {
					t.Errorf("flag state of the forwarded message: %+v", f)
				}
			}
		}
		if !found {
			t.Fatalf("the sync (%s) brought no flag state for uid %d: %s", next.Method, plain, pretty(next))
		}
	})
}

// go-imap's client canonicalises $Forwarded as it reads it, so the test
// above passes through it; hasFlag itself must not rely on that.
func TestHasFlagIgnoresCase(t *testing.T) {
	for _, tt := range []struct {
		flags []imap.Flag
		f     imap.Flag
		want  bool
	}{
		{[]imap.Flag{"$forwarded"}, imap.FlagForwarded, true},
		{[]imap.Flag{imap.FlagSeen, "$FORWARDED"}, imap.FlagForwarded, true},
		{[]imap.Flag{`\answered`}, imap.FlagAnswered, true},
		{[]imap.Flag{"$Forwarded2", "Forwarded"}, imap.FlagForwarded, false},
		{nil, imap.FlagForwarded, false},
	} {
		if got := hasFlag(tt.flags, tt.f); got != tt.want {
			t.Errorf("hasFlag(%v, %s) = %v, want %v", tt.flags, tt.f, got, tt.want)
		}
	}
}
