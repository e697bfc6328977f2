package serveimap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
)

// folder_status counts the whole folder, not a page of it: three of
// five unread in INBOX, an empty folder, INBOX however it is spelt, and
// a folder that is not there is the tool's error, not the connection's.
func TestFolderStatus(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for i := range 5 {
			var flags []imap.Flag
			if i%2 == 1 {
				flags = []imap.Flag{imap.FlagSeen}
			}
			b.Seed(t, user, "INBOX", mail(fmt.Sprintf("m%d", i), "a@x.org", time.Hour), flags...)
		}
		for _, tt := range []struct {
			folder        string
			total, unread uint32
		}{{"", 5, 3}, {"inbox", 5, 3}, {"INBOX", 5, 3}, {"Archive", 0, 0}} {
			var out imapwire.FolderStatusOut
			mustOK(t, imapwire.ToolFolderStatus, call(t, cs, imapwire.ToolFolderStatus, imapwire.FolderStatusIn{Account: "work", Folder: tt.folder}, &out))
			if out.Total != tt.total || out.Unread != tt.unread {
				t.Errorf("%q: %d messages, %d unread; want %d, %d", tt.folder, out.Total, out.Unread, tt.total, tt.unread)
			}
		}
		res := call(t, cs, imapwire.ToolFolderStatus, imapwire.FolderStatusIn{Account: "work", Folder: "No such folder"}, nil)
		mustClass(t, imapwire.ToolFolderStatus, res, conn.ClassTool)
		res = call(t, cs, imapwire.ToolFolderStatus, imapwire.FolderStatusIn{Account: "work", Folder: strings.Repeat("x", 300)}, nil)
		mustClass(t, imapwire.ToolFolderStatus, res, conn.ClassTool)
	})
}
