package serveimap

import (
	"context"
	"slices"
	"testing"

	"unibox/accounts/imapwire"
)

// TestToolNamesAreTheWireList: the server registers exactly imapwire's
// list of tools (a tool added under a name of its own, or a name left in
// the list with no tool, fails here), and each constant still spells
// the name another client of serve-imap calls: the constants make a
// rename a compile error on our two sides, this table makes it a test
// failure for everyone else's.
func TestToolNamesAreTheWireList(t *testing.T) {
	wire := []struct{ name, want string }{
		{imapwire.ToolAddAccount, "add_account"},
		{imapwire.ToolCheckAccount, "check_account"},
		{imapwire.ToolListFolders, "list_folders"},
		{imapwire.ToolListMessages, "list_messages"},
		{imapwire.ToolSyncFolder, "sync_folder"},
		{imapwire.ToolFolderStatus, "folder_status"},
		{imapwire.ToolFetchThreading, "fetch_threading"},
		{imapwire.ToolFetchBodies, "fetch_bodies"},
		{imapwire.ToolSpecialFolder, "special_folder"},
		{imapwire.ToolSpecialFolders, "special_folders"},
		{imapwire.ToolGetMessage, "get_message"},
		{imapwire.ToolSearch, "search"},
		{imapwire.ToolFindMessage, "find_message"},
		{imapwire.ToolSentTo, "sent_to"},
		{imapwire.ToolSetFlags, "set_flags"},
		{imapwire.ToolMove, "move"},
		{imapwire.ToolArchive, "archive"},
		{imapwire.ToolTrash, "trash"},
		{imapwire.ToolAppendMessage, "append_message"},
		{imapwire.ToolDeleteMessages, "delete_messages"},
		{imapwire.ToolCreateFolder, "create_folder"},
		{imapwire.ToolGetPart, "get_part"},
		{imapwire.ToolUnsubscribeInfo, "unsubscribe_info"},
		{imapwire.ToolSavePart, "save_part"},
	}
	var pinned []string
	for _, w := range wire {
		if w.name != w.want {
			t.Errorf("tool constant for %q is %q: a rename changes serve-imap's wire", w.want, w.name)
		}
		pinned = append(pinned, w.want)
	}
	res, err := session(t, Options{}).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, tool := range res.Tools {
		listed = append(listed, tool.Name)
	}
	for _, c := range []struct {
		what string
		got  []string
	}{{"the server lists", listed}, {"imapwire.Tools holds", imapwire.Tools}} {
		got := slices.Sorted(slices.Values(c.got))
		if want := slices.Sorted(slices.Values(pinned)); !slices.Equal(got, want) {
			t.Errorf("%s %v, want the %d tools %v", c.what, got, len(want), want)
		}
	}
}
