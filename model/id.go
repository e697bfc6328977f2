package model

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// MessageID addresses one message everywhere (TUI, `list --json`, `unibox
// mcp`). A UID means nothing without its folder and UIDVALIDITY, so all
// four travel together.
type MessageID struct {
	Account     string
	Folder      string
	UIDValidity uint32
	UID         uint32
}

// String is the opaque id: account/folder/uidvalidity/uid with the names
// path-escaped, e.g. "Work/INBOX/1700000000/42".
func (id MessageID) String() string {
	return url.PathEscape(id.Account) + "/" + url.PathEscape(id.Folder) + "/" +
		strconv.FormatUint(uint64(id.UIDValidity), 10) + "/" + strconv.FormatUint(uint64(id.UID), 10)
}

// ParseMessageID is the inverse of MessageID.String. Its errors quote at
// most a short, escaped prefix of s (Quote): an id comes from outside (an
// agent), and a huge or hostile one must not come back in the answer.
func ParseMessageID(s string) (MessageID, error) {
	bad := func(why string) (MessageID, error) {
		return MessageID{}, fmt.Errorf("message id %s: %s", Quote(s), why)
	}
	parts := strings.Split(s, "/")
	if len(parts) != 4 {
		return bad("want account/folder/uidvalidity/uid")
	}
	acct, err := url.PathUnescape(parts[0])
	if err != nil {
		return bad("bad escape in the account name")
	}
	folder, err := url.PathUnescape(parts[1])
	if err != nil {
		return bad("bad escape in the folder name")
	}
	// strconv's errors would quote the number whole.
	uv, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil {
		return bad("uidvalidity is not a 32-bit number")
	}
	uid, err := strconv.ParseUint(parts[3], 10, 32)
	if err != nil {
		return bad("uid is not a 32-bit number")
	}
	if acct == "" || folder == "" || uid == 0 {
		return bad("empty account, folder or uid")
	}
	return MessageID{Account: acct, Folder: folder, UIDValidity: uint32(uv), UID: uint32(uid)}, nil
}
