package mcpprovider

import (
	"reflect"
	"strings"
	"testing"

	"unibox/accounts/config"
)

// A send tool's {from} is the envelope sender the account checked (one of
// its own addresses), never the file's From header: a draft found in
// Drafts or a file handed to `unibox send` may name a stranger.
func TestSendToolFromIsTheEnvelopes(t *testing.T) {
	w := newWorld(t, "email-mcp", func(a *config.Account) {
		a.Tools = map[string]config.ToolCall{"send": {Tool: "send_raw",
			Args: map[string]any{"account": "default", "message": "{raw}", "sender": "{from}"}}}
	})
	forged := strings.Replace(plainMail, "From: Sam <sam@example.com>", "From: Alice <alice@uharness.test.evil.example>", 1)
	if _, before, err := w.sendOnce(envelope(forged), "send_raw", nil); err != nil || before != 1 {
		t.Fatalf("send_raw: %v, beforeBody %d", err, before)
	}
	want := fxSendRecord{"account": "default", "message": forged, "sender": "sam@example.com"}
	if got := w.sent(); len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("send_raw got %#v\nwant %#v", got, want)
	}
}
