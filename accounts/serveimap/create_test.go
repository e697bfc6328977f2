package serveimap

import (
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
	"unibox/conn"
)

// create_folder makes a missing folder once: asked again (another process,
// or a retry after a drop) it finds the folder there and says so; the
// inbox is never made; a bad name is refused naming the field.
func TestCreateFolder(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		cs, user := provisioned(t, b, Options{})
		for i, want := range []bool{true, false} {
			var out imapwire.CreateFolderOut
			mustOK(t, "create_folder", call(t, cs, "create_folder", imapwire.CreateFolderIn{Account: "work", Folder: "Snoozed"}, &out))
			if out.Created != want || out.Folder != "Snoozed" {
				t.Fatalf("call %d: %+v, want created %v", i, out, want)
			}
		}
		c := b.Client(t, user)
		list, err := c.List("", "Snoozed", nil).Collect()
		if err != nil || len(list) != 1 {
			t.Fatalf("LIST Snoozed: %v %v", list, err)
		}
		if _, err := c.Select("Snoozed", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
			t.Fatalf("the made folder cannot be selected: %v", err)
		}
		var out imapwire.CreateFolderOut
		mustOK(t, "create_folder inbox", call(t, cs, "create_folder", imapwire.CreateFolderIn{Account: "work", Folder: "inbox"}, &out))
		if out.Created {
			t.Fatalf("made an inbox: %+v", out)
		}
		for _, bad := range []string{"", "  ", "a\x07b"} {
			res := call(t, cs, "create_folder", imapwire.CreateFolderIn{Account: "work", Folder: bad}, nil)
			mustClass(t, "create_folder "+bad, res, conn.ClassTool)
			if text := conn.ResultText(res); !strings.Contains(text, "folder must be a non-empty name") {
				t.Fatalf("bad name %q: %s", bad, text)
			}
		}
	})
}
