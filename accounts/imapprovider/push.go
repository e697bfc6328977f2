package imapprovider

import (
	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
)

// pushOf is check_account's push state in the provider-neutral words the
// account's health reads: a lost watching connection, or a server without
// IDLE, means changes are polled, not pushed; starting and idle mean they
// are pushed. "" (an older child that does not say) is "".
func pushOf(wire string) provider.Push {
	switch wire {
	case "":
		return ""
	case imapwire.PushLost, imapwire.PushPolling:
		return provider.PushPolling
	}
	return provider.PushLive
}

// storePush records what a tool said of push, if it said anything.
func storePush(state *provider.PushState, wire string) {
	if state != nil && wire != "" {
		state.Store(pushOf(wire))
	}
}

// pushFolder is the folder a push notification's uri names (see
// imapwire.PushURI), for the account's history.
func pushFolder(uri string) (string, bool) {
	_, folder, err := imapwire.ParsePushURI(uri)
	return folder, err == nil
}
