package serveimap

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/accounts/testservers/memimap"
	"unibox/conn"
)

// sent_to on both servers: To, Cc and Bcc of a Sent message count, as
// whole addresses in any case; SEARCH's substring hits ("xine@" in
// "maxine@") and the INBOX's addresses do not.
func TestSentTo(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for _, m := range []imaptest.Mail{
			{From: "me@example.org", To: "Bob <bob@example.org>", Subject: "to", Headers: map[string]string{"Cc": "carol@example.org"}},
			{From: "me@example.org", To: "team@example.org", Subject: "bcc", Headers: map[string]string{"Bcc": "dave@example.org"}},
			{From: "me@example.org", To: "maxine@shop.example", Subject: "substring"},
		} {
			m.Date = time.Now()
			b.Seed(t, user, "Sent", m.Bytes())
		}
		b.Seed(t, user, "INBOX", imaptest.Mail{From: "eve@evil.example", To: "me@example.org", Subject: "hi", Date: time.Now(),
			Headers: map[string]string{"Cc": "x@evil.example"}}.Bytes())
		ask := []string{"BOB@example.org", "carol@Example.ORG", "dave@example.org", "xine@shop.example", "maxine@shop.example", "x@evil.example", "eve@evil.example"}
		var out imapwire.SentToOut
		mustOK(t, "sent_to", call(t, cs, "sent_to", imapwire.SentToIn{Account: "work", Addresses: ask}, &out))
		want := []string{"BOB@example.org", "carol@Example.ORG", "dave@example.org", "maxine@shop.example"}
		if !slices.Equal(out.Known, want) || out.Folder != "Sent" {
			t.Fatalf("sent_to: %s\nwant known %v", pretty(out), want)
		}
	})
}

// A bad sent_to is refused before any IMAP, naming the field and limit.
func TestSentToRefusesBadInput(t *testing.T) {
	b := imaptest.NewMem(t, memimap.Options{})
	cs, _ := provisioned(t, b, Options{})
	var many []string
	for i := range 51 {
		many = append(many, fmt.Sprintf("a%d@example.org", i))
	}
	for _, tc := range []struct {
		addrs []string
		want  string
	}{
		{nil, "addresses: give at least one"},
		{many, "addresses: 51 given, at most 50"},
		{[]string{"bob@example.org", "nobody"}, `addresses[1] "nobody": not a mail address`},
		{[]string{"bob@example.org\r\nA1 LOGOUT"}, `addresses[0]`},
	} {
		res := call(t, cs, "sent_to", imapwire.SentToIn{Account: "work", Addresses: tc.addrs}, nil)
		mustClass(t, "sent_to", res, conn.ClassTool)
		if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, tc.want) {
			t.Errorf("sent_to %q: %s, want %q", tc.addrs, text, tc.want)
		}
	}
}
