package tui

import (
	"errors"
	"testing"

	"unibox/accounts"
	"unibox/model"
)

// A search waits for every account, drops answers to an earlier search,
// and says which accounts could not search.
func TestSearchBox(t *testing.T) {
	add := func(msgs []model.Message) int { return len(msgs) }
	s := searchBox{}.Start(9, "invoice", 2)
	s = s.searched(searchedMsg{req: 8, page: accounts.Page{Messages: make([]model.Message, 5)}}, "Old", add)
	if s.found != 0 || s.finished() {
		t.Fatalf("an earlier search's answer counted: %+v", s)
	}
	s = s.searched(searchedMsg{req: 9, page: accounts.Page{Messages: make([]model.Message, 2)}}, "Work", add)
	if s.finished() {
		t.Fatal("finished with one account still searching")
	}
	s = s.searched(searchedMsg{req: 9, err: errors.New("no route")}, "Yahoo", add)
	line, bad := s.outcome(7)
	if !s.finished() || !bad || line != `search "invoice": 2 more found on the servers, 7 shown; not searched: Yahoo: no route` {
		t.Fatalf("finished %v, bad %v, %q", s.finished(), bad, line)
	}
}
