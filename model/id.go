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

// ParseMessageID is the inverse of MessageID.String.
func ParseMessageID(s string) (MessageID, error) {
	parts := strings.Split(s, "/")
	if len(parts) != 4 {
		return MessageID{}, fmt.Errorf("message id %q: want account/folder/uidvalidity/uid", s)
	}
	acct, err1 := url.PathUnescape(parts[0])
	folder, err2 := url.PathUnescape(parts[1])
	uv, err3 := strconv.ParseUint(parts[2], 10, 32)
	uid, err4 := strconv.ParseUint(parts[3], 10, 32)
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			return MessageID{}, fmt.Errorf("message id %q: %w", s, err)
		}
	}
	if acct == "" || folder == "" || uid == 0 {
		return MessageID{}, fmt.Errorf("message id %q: empty account, folder or uid", s)
	}
	return MessageID{Account: acct, Folder: folder, UIDValidity: uint32(uv), UID: uint32(uid)}, nil
}
