package config

import (
	"strings"

	"unibox/model"
)

// DefaultSnoozeFolder is where snoozed messages wait when snooze_folder
// is not set; it is made on the server the first time it is needed.
const DefaultSnoozeFolder = "Snoozed"

// maxFolderName bounds snooze_folder: IMAP servers refuse far shorter
// names than a line may hold (Dovecot: 255 bytes per name).
const maxFolderName = 255

// snoozeFolder reads snooze_folder: any folder but the inbox itself (a
// snoozed message would never leave it).
func snoozeFolder(t *table) string {
	s, ok := t.str("snooze_folder")
	if !ok {
		return "" // DefaultSnoozeFolder, applied where it is used
	}
	switch {
	case strings.TrimSpace(s) == "":
		t.errorf("snooze_folder", "must not be empty (default %q)", DefaultSnoozeFolder)
	case hasControl(s):
		t.errorf("snooze_folder", "must not contain control characters")
	case len(s) > maxFolderName:
		t.errorf("snooze_folder", "is %d bytes; at most %d", len(s), maxFolderName)
	case model.SameFolder(s, "INBOX"):
		t.errorf("snooze_folder", "must not be INBOX: snoozed mail waits outside the inbox")
	}
	return s
}
