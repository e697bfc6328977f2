package teatest

import (
	"testing"
	"time"

	"unibox/ui/tui"
)

// The folder pickers take the list's keys (issue 37, item 9): `o` then
// `j` once typed a j into the filter (and enter opened Junk); now j/k, g/G
// move, `/` starts the filter, where ? is text, and esc leaves the filter
// before the picker. `m` shares the list.
func TestPickersMoveByTheListsKeys(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 3, time.Minute)...)
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "3 messages")

	tm.Send(key("m")) // Archive, INBOX, Projects/Atlas, Receipts, Trash
	waitFor(t, tm, "move to: / to filter", "Projects/Atlas")
	typeText(tm, "jj")
	waitFor(t, tm, "> Projects/Atlas")
	tm.Send(key("k"))
	waitFor(t, tm, "> INBOX")
	tm.Send(key("G"))
	waitFor(t, tm, "> Trash")
	tm.Send(key("/"))
	typeText(tm, "r?")
	waitFor(t, tm, "move to: r?") // ? is text while typing: no help
	tm.Send(key("esc"))
	waitFor(t, tm, "move to: / to filter", "> Archive")
	typeText(tm, "jj")
	tm.Send(key("enter"))
	waitFor(t, tm, "moved to Projects/Atlas 1: Work 1")

	tm.Send(key("o")) // INBOX, Archive, Projects/Atlas, Receipts, Trash
	waitFor(t, tm, "folders of Work", "folder: / to filter", "Receipts")
	typeText(tm, "jjj")
	waitFor(t, tm, "> Receipts")
	tm.Send(key("?"))
	waitFor(t, tm, "page down") // the full help: ? is help before /
	tm.Send(key("?"))
	tm.Send(key("enter"))
	waitFor(t, tm, "Work: Receipts")
	final(t, tm)
}
