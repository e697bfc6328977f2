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

// sent_to on both servers: To, Cc and Bcc of a Sent message from one of
// the account's own addresses count, as whole addresses in any case;
// SEARCH's substring hits ("xine@" in "maxine@"), the INBOX's addresses,
// and a message in Sent whose From is not the account's (a stranger's
// mail filed there: "mallory@" and "me@example.org.evil" alike, and a
// From that adds a stranger beside the account) do not. An alias counts
// as the account's own.
func TestSentTo(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for _, m := range []imaptest.Mail{
			{From: "Me <ME@Example.org>", To: "Bob <bob@example.org>", Subject: "to", Headers: map[string]string{"Cc": "carol@example.org"}},
			{From: "me@example.org", To: "team@example.org", Subject: "bcc", Headers: map[string]string{"Bcc": "dave@example.org"}},
			{From: "me@example.org", To: "maxine@shop.example", Subject: "substring"},
			{From: "alias@example.net", To: "frank@example.org", Subject: "from an alias"},
			{From: "mallory@evil.example", To: "evil@attacker.test", Subject: "a stranger's, filed in Sent"},
			{From: "me@example.org.evil", To: "evil2@attacker.test", Subject: "a From that holds the account's"},
			{From: "me@example.org, mallory@evil.example", To: "evil3@attacker.test", Subject: "the account and a stranger"},
		} {
			m.Date = time.Now()
			b.Seed(t, user, "Sent", m.Bytes())
		}
		b.Seed(t, user, "INBOX", imaptest.Mail{From: "eve@evil.example", To: "me@example.org", Subject: "hi", Date: time.Now(),
			Headers: map[string]string{"Cc": "x@evil.example"}}.Bytes())
		ask := []string{"BOB@example.org", "carol@Example.ORG", "dave@example.org", "xine@shop.example", "maxine@shop.example", "x@evil.example", "eve@evil.example",
			"frank@example.org", "evil@attacker.test", "evil2@attacker.test", "evil3@attacker.test"}
		var out imapwire.SentToOut
		mustOK(t, "sent_to", call(t, cs, "sent_to", imapwire.SentToIn{Account: "work", Addresses: ask, Own: []string{"me@example.org", "Alias@EXAMPLE.net"}}, &out))
		want := []string{"BOB@example.org", "carol@Example.ORG", "dave@example.org", "maxine@shop.example", "frank@example.org"}
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
	own := []string{"me@example.org"}
	for _, tc := range []struct {
		addrs, own []string
		want       string
	}{
		{nil, own, "addresses: give at least one"},
		{many, own, "addresses: 51 given, at most 50"},
		{[]string{"bob@example.org", "nobody"}, own, `addresses[1] "nobody": not a mail address`},
		{[]string{"bob@example.org\r\nA1 LOGOUT"}, own, `addresses[0]`},
		{[]string{"bob@example.org"}, nil, "own: give the account's own addresses"},
		{[]string{"bob@example.org"}, many, "own: 51 given, at most 50"},
		{[]string{"bob@example.org"}, []string{"me"}, `own[0] "me": not a mail address`},
	} {
		res := call(t, cs, "sent_to", imapwire.SentToIn{Account: "work", Addresses: tc.addrs, Own: tc.own}, nil)
		mustClass(t, "sent_to", res, conn.ClassTool)
		if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, tc.want) {
			t.Errorf("sent_to %q: %s, want %q", tc.addrs, text, tc.want)
		}
	}
}
