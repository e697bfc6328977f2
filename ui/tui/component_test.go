package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
)

func testEnv(t *testing.T) *env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &env{ctx: ctx, cancel: cancel, keys: DefaultKeyMap(), styles: DefaultStyles()}
}

func typed(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// The move flow is the picker's own: it waits for its folders request
// (an earlier one's answer is dropped), narrows by typing, moves by the
// arrows, and ends picked or cancelled.
func TestPickerIsTheMoveFlow(t *testing.T) {
	e := testEnv(t)
	rows := []model.Row{{Message: model.Message{ID: model.MessageID{Account: "Work", UID: 1}}}}
	b, cmd := startMove(e, rows, nil)
	if cmd == nil || !b.loading || e.nextReq != b.req {
		t.Fatalf("startMove: cmd %v, loading %v, req %d of %d", cmd != nil, b.loading, b.req, e.nextReq)
	}
	if b, _ = b.update(foldersMsg{req: b.req - 1, folders: []string{"Old"}}); !b.loading {
		t.Fatal("an earlier move's folders were taken")
	}
	b, _ = b.update(foldersMsg{req: b.req, folders: []string{"Archive", "Projects/Atlas", "Projects/Zeta"}})
	if v := b.view(40, 6); !strings.Contains(v, "> Archive") || strings.Count(v, "\n") != 5 {
		t.Fatalf("view:\n%s", v)
	}
	b, _ = b.update(typed("proj"))
	b, _ = b.update(tea.KeyMsg{Type: tea.KeyDown})
	if _, _, ok := b.ended(); ok {
		t.Fatal("ended before a pick")
	}
	b, _ = b.update(tea.KeyMsg{Type: tea.KeyEnter})
	if folder, moved, ok := b.ended(); !ok || folder != "Projects/Zeta" || len(moved) != 1 || moved[0].ID != rows[0].ID {
		t.Fatalf("picked %q for %v, %v", folder, moved, ok)
	}

	b, _ = startMove(e, rows, nil)
	b, _ = b.update(foldersMsg{req: b.req, err: errors.New("no route")})
	if b, _ = b.update(tea.KeyMsg{Type: tea.KeyEnter}); b.done {
		t.Fatal("enter picked from no folders")
	}
	if v := b.view(40, 4); !strings.Contains(v, "no route") {
		t.Fatalf("the folders' failure is not shown:\n%s", v)
	}
	if b, _ = b.update(tea.KeyMsg{Type: tea.KeyEsc}); !b.done || b.choice != "" {
		t.Fatal("esc did not cancel")
	}
}

// The filter is an input: back clears it, open ends it with its text,
// anything else edits it.
func TestFilterInput(t *testing.T) {
	f, _ := newFilterBox(DefaultKeyMap()).open(false)
	f, _ = f.update(typed("inv"))
	if f.text() != "inv" || !f.active || !strings.Contains(f.view(40, 1), "/inv") {
		t.Fatalf("typing: %q, active %v, %q", f.text(), f.active, f.view(40, 1))
	}
	if g, _ := f.update(tea.KeyMsg{Type: tea.KeyEnter}); g.active || g.text() != "inv" {
		t.Fatalf("open: active %v, %q", g.active, g.text())
	}
	if g, _ := f.update(tea.KeyMsg{Type: tea.KeyEsc}); g.active || g.text() != "" {
		t.Fatalf("back: active %v, %q", g.active, g.text())
	}
}
