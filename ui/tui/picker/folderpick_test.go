package picker

import (
	"strings"
	"testing"

	"unibox/model"
	"unibox/ui/tui/screen/screentest"
)

// The folder picker says each folder's unread count as every face does:
// "~" before a count that is only what the store holds of its folder.
func TestFolderPickerMarksAnInexactCount(t *testing.T) {
	p, _ := NewFolders(screentest.Env(t), 0, &screentest.Account{Label: "Work"})
	fs := []model.Folder{{Name: "Lists", Unread: 3, Total: 30, Inexact: true}, {Name: "Receipts", Unread: 120, Total: 120}}
	s, _ := screentest.Step(p, FolderListMsg{req: p.req, stored: true, folders: fs})
	view := s.View(80, 10)
	for _, want := range []string{"Lists  ~3 unread", "Receipts  120 unread"} {
		if !strings.Contains(view, want) {
			t.Errorf("the picker lacks %q:\n%s", want, view)
		}
	}
}
