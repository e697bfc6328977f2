package imapwire

import (
	"fmt"
	"net/url"
	"strings"
)

// Push: the app subscribes (resources/subscribe) to a folder's URI after
// every connect, and serve-imap sends notifications/resources/updated for
// it whenever its IDLE connection hears of new mail, a flag change or an
// expunge. The notification says only that something changed; the app
// lists the folder to learn what.

// PushScheme is the scheme of a watched folder's URI.
const PushScheme = "unibox-imap"

// Push states, as check_account reports them.
const (
	PushStarting = "starting" // subscribed, the watching connection not yet up
	PushIdle     = "idle"     // IDLE is in place
	PushPolling  = "polling"  // the server has no IDLE: NOOP every poll_ms
	PushLost     = "lost"     // the watching connection is down, being made again
)

// PushURI names account's folder: unibox-imap://ACCOUNT/FOLDER, each part
// path-escaped.
func PushURI(account, folder string) string {
	return PushScheme + "://" + url.PathEscape(account) + "/" + url.PathEscape(folder)
}

// ParsePushURI is the inverse of PushURI.
func ParsePushURI(uri string) (account, folder string, err error) {
	rest, ok := strings.CutPrefix(uri, PushScheme+"://")
	a, f, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || a == "" || f == "" {
		return "", "", fmt.Errorf("push uri %q: want %s://ACCOUNT/FOLDER", uri, PushScheme)
	}
	if account, err = url.PathUnescape(a); err == nil {
		folder, err = url.PathUnescape(f)
	}
	if err != nil {
		return "", "", fmt.Errorf("push uri %q: %w", uri, err)
	}
	return account, folder, nil
}
