package serveimap

import (
	"testing"
	"unicode/utf8"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

func safe(t *testing.T, where, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%s: invalid UTF-8: %q", where, s)
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%s: control %U in %q", where, r, s)
			return
		}
	}
}

func TestHostileMailSurvivesListAndGet(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		corpus := imaptest.HostileCorpus()
		for _, m := range corpus {
			b.Seed(t, user, "INBOX", m.Raw)
		}
		var list imapwire.ListMessagesOut
		mustOK(t, "list_messages", call(t, cs, "list_messages", imapwire.ListMessagesIn{Account: "work"}, &list))
		if len(list.Messages) != len(corpus) {
			t.Fatalf("one bad message failed the list: %d of %d", len(list.Messages), len(corpus))
		}
		for _, m := range list.Messages {
			safe(t, "subject", m.Subject)
			safe(t, "from name", m.From.Name)
			safe(t, "from address", m.From.Address)
			if m.Date == "" {
				t.Errorf("message %d has no date at all (the arrival time is the fallback)", m.UID)
			}
			var got imapwire.GetMessageOut
			mustOK(t, "get_message", call(t, cs, "get_message", imapwire.GetMessageIn{Account: "work", UID: m.UID}, &got))
			safe(t, "body", got.Body)
			for _, h := range got.Headers {
				safe(t, "header", h.Value)
			}
		}
	})
}
