package unsub

import (
	"fmt"
	"strings"
	"testing"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/unsubscribe"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// The plan is drawn whole, wrapped over the bottom of the body, however
// long its URI and however narrow the terminal; the frame keeps its size.
func TestUnsubscribeOverlayShowsAllOfIt(t *testing.T) {
	uri := "https://list.example/unsubscribe/" + strings.Repeat("a1b2c3", 30) + "?user=me%40example.org"
	box := "y to go, any other key cancels: unsubscribe: POST to " + uri
	for _, width := range []int{40, 80, 200} {
		body := strings.TrimSuffix(strings.Repeat(strings.Repeat("x", width)+"\n", 20), "\n")
		got := strings.Split(overlay(body, box, width), "\n")
		if len(got) != 20 {
			t.Fatalf("width %d: %d lines, want 20", width, len(got))
		}
		var text strings.Builder
		rule := -1
		for i, l := range got {
			if w := textsafe.Width(l); w != width {
				t.Fatalf("width %d: line %d is %d columns", width, i, w)
			}
			if strings.HasPrefix(l, "─") {
				rule = i
			} else if rule >= 0 {
				text.WriteString(l)
			}
		}
		if rule < 0 || strings.TrimRight(text.String(), " ") != box {
			t.Fatalf("width %d: the box reads %q", width, text.String())
		}
	}
}

func TestWrapCellsKeepsClusters(t *testing.T) {
	s := "日本語のリンク👩‍👩‍👧https://x.example/é"
	lines := wrapCells(s, 5)
	if strings.Join(lines, "") != s {
		t.Fatalf("lost text: %q", lines)
	}
	for _, l := range lines {
		if textsafe.Width(l) > 5 {
			t.Fatalf("line %q is %d columns", l, textsafe.Width(l))
		}
	}
}

// U's flow is the box's own: run on the box alone, it tells the status
// line by noteMsg and asks for the archive by archiveSenderMsg, and keeps
// its plan and offer only where the screen up can hold them.
func TestUnsubBoxTellsTheRoot(t *testing.T) {
	id := model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 3}
	rows := []model.Row{{Message: model.Message{ID: id, From: model.Address{Address: "news@shop.example"}}}}
	y := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}
	n := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}
	plan := &unsubPlan{plan: unsubscribe.Plan{Kind: unsubscribe.KindOneClick, URI: "https://shop.example/u"}}
	for _, tc := range []struct {
		name           string
		do             func(u *Box)
		said           []tea.Msg
		planned, offer bool // a plan, an archive offer waits for y after
	}{
		{"an account that cannot", func(u *Box) { u.Start(id) },
			[]tea.Msg{screen.NoteMsg{Text: "unsubscribe: this account cannot read a message's unsubscribe headers", Bad: true}}, false, false},
		{"no header", func(u *Box) { u.Info(InfoMsg{req: u.req}, true) },
			[]tea.Msg{screen.NoteMsg{Text: "unsubscribe: the message has no List-Unsubscribe header", Bad: true}}, false, false},
		{"an answer where no box can wait", func(u *Box) { u.Info(InfoMsg{req: u.req}, false) }, nil, false, false},
		{"n cancels the plan", func(u *Box) { u.plan = plan; *u, _ = u.Update(n) },
			[]tea.Msg{screen.NoteMsg{Text: "unsubscribe cancelled: nothing was sent", Bad: false}}, false, false},
		{"y takes the archive offer", func(u *Box) { u.Archive = &ArchiveOffer{Rows: rows}; *u, _ = u.Update(y) },
			[]tea.Msg{ArchiveSenderMsg{Rows: rows}}, false, false},
		{"the offer where no box can wait", func(u *Box) { u.Offer(StoredMsg{sender: "news@shop.example", what: "done"}, rows, false) },
			[]tea.Msg{screen.NoteMsg{Text: "unsubscribed: done", Bad: false}}, false, false},
		{"the offer", func(u *Box) { u.Offer(StoredMsg{sender: "news@shop.example", what: "done"}, rows, true) },
			[]tea.Msg{screen.NoteMsg{Text: "unsubscribed (done). y archives the 1 message from news@shop.example in every account (z undoes), any other key leaves them", Bad: false}}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &screen.Env{Keys: screen.DefaultKeyMap()}
			e.Opts.Accounts = []screen.Account{&screentest.Account{Label: "Work"}}
			u := &Box{e: e}
			tc.do(u)
			if fmt.Sprint(e.Said) != fmt.Sprint(tc.said) {
				t.Errorf("told %v, want %v", e.Said, tc.said)
			}
			if (u.plan != nil) != tc.planned || (u.Archive != nil) != tc.offer {
				t.Errorf("plan %v, offer %v; want %v, %v", u.plan != nil, u.Archive != nil, tc.planned, tc.offer)
			}
		})
	}
}
