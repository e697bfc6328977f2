package picker

import (
	"errors"
	"strings"
	"testing"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/screen"
)

// The move flow is the picker's own: it waits for its folders request
// (an earlier one's answer is dropped), narrows by a filter after /,
// moves by the arrows, and ends picked (telling the folder) or cancelled (telling a
// note).
func TestPickerIsTheMoveFlow(t *testing.T) {
	e := screentest.Env(t)
	rows := []model.Row{{Message: model.Message{ID: model.MessageID{Account: "Work", UID: 1}}}}
	b, cmd := StartMove(e, rows, nil)
	if cmd == nil || !b.loading || e.NextReq != b.Req {
		t.Fatalf("startMove: cmd %v, loading %v, req %d of %d", cmd != nil, b.loading, b.Req, e.NextReq)
	}
	var s screen.Screen = b
	if s, _ = screentest.Step(s, FoldersMsg{Req: b.Req - 1, Folders: []string{"Old"}}); !s.(Move).loading {
		t.Fatal("an earlier move's folders were taken")
	}
	s, _ = screentest.Step(s, FoldersMsg{Req: b.Req, Folders: []string{"Archive", "Projects/Atlas", "Projects/Zeta"}})
	if v := s.View(40, 6); !strings.Contains(v, "> Archive") || strings.Count(v, "\n") != 5 {
		t.Fatalf("view:\n%s", v)
	}
	s, _ = screentest.Step(s, screentest.Typed("/"))
	s, _ = screentest.Step(s, screentest.Typed("proj"))
	var said []tea.Msg
	if s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyDown}); s == nil || len(said) > 0 {
		t.Fatal("ended before a pick")
	}
	s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEnter})
	if p, ok := screentest.Only[MovePickedMsg](said); s != nil || !ok || p.Folder != "Projects/Zeta" || len(p.Rows) != 1 || p.Rows[0].ID != rows[0].ID {
		t.Fatalf("picked %+v (screen %v)", said, s)
	}

	b, _ = StartMove(e, rows, nil)
	s, _ = screentest.Step(b, FoldersMsg{Req: b.Req, err: errors.New("no route")})
	if s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEnter}); s == nil || len(said) > 0 {
		t.Fatal("enter picked from no folders")
	}
	if v := s.View(40, 4); !strings.Contains(v, "no route") {
		t.Fatalf("the folders' failure is not shown:\n%s", v)
	}
	if s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEsc}); s != nil || len(said) != 1 || said[0] != (screen.NoteMsg{Text: "move cancelled"}) {
		t.Fatalf("esc did not cancel: %v, %+v", s, said)
	}
}
