package imapprovider

import (
	"testing"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
)

// check_account's push states reach the account in provider-neutral
// words: lost and polling are polled, starting and idle are pushed, and a
// child that says nothing says nothing.
func TestPushOfMapsTheWireStates(t *testing.T) {
	for _, tt := range []struct {
		wire string
		want provider.Push
	}{
		{imapwire.PushStarting, provider.PushLive},
		{imapwire.PushIdle, provider.PushLive},
		{imapwire.PushPolling, provider.PushPolling},
		{imapwire.PushLost, provider.PushPolling},
		{"", ""},
	} {
		if got := pushOf(tt.wire); got != tt.want {
			t.Errorf("pushOf(%q) = %q, want %q", tt.wire, got, tt.want)
		}
	}
}

// A push notification's uri names its folder for the history, whatever
// the account's name and the folder hold; a uri of another form names
// none.
func TestPushFolderReadsTheURI(t *testing.T) {
	for _, tt := range []struct {
		uri    string
		folder string
		ok     bool
	}{
		{imapwire.PushURI("Work", "INBOX"), "INBOX", true},
		{imapwire.PushURI("Me / you", "Lists/Go dev"), "Lists/Go dev", true},
		{"file:///etc/passwd", "", false},
		{"unibox-imap://Work", "", false},
	} {
		folder, ok := pushFolder(tt.uri)
		if folder != tt.folder || ok != tt.ok {
			t.Errorf("pushFolder(%q) = %q, %v; want %q, %v", tt.uri, folder, ok, tt.folder, tt.ok)
		}
	}
}
