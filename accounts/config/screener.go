package config

import (
	"strings"

	"unibox/model"
)

// The screener's settings (issue 40): screener = "off" | "new_senders";
// screen_out = "archive" | "trash" | a folder: where mail from a sender
// the person screened out goes.
const (
	ScreenerOff        = "off"
	ScreenerNewSenders = "new_senders"
	ScreenOutArchive   = "archive"
	ScreenOutTrash     = "trash"
)

// ScreenOutOr is where screened-out mail goes: screen_out, else archive.
func (a Account) ScreenOutOr() string {
	if a.ScreenOut == "" {
		return ScreenOutArchive
	}
	return a.ScreenOut
}

// screener reads screener and screen_out.
func screener(t *table, a *Account) {
	if s, ok := t.str("screener"); ok {
		switch s {
		case ScreenerOff:
		case ScreenerNewSenders:
			a.Screener = true
		default:
			t.errorf("screener", "%q is not one of %q, %q", s, ScreenerOff, ScreenerNewSenders)
		}
	}
	s, ok := t.str("screen_out")
	if !ok {
		return
	}
	switch {
	case strings.TrimSpace(s) == "":
		t.errorf("screen_out", "must not be empty: %q, %q or a folder", ScreenOutArchive, ScreenOutTrash)
	case hasControl(s):
		t.errorf("screen_out", "must not contain control characters")
	case len(s) > maxFolderName:
		t.errorf("screen_out", "is %d bytes; at most %d", len(s), maxFolderName)
	case model.SameFolder(s, "INBOX"):
		t.errorf("screen_out", "must not be INBOX: screened-out mail leaves the inbox")
	default:
		a.ScreenOut = s
	}
}
