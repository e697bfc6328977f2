package picker

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screen/screentest"
)

// pickerUnderTest opens one of the two pickers that share pickList on
// the folders INBOX, Archive, Junk, Later and Projects, listed in that
// order, and reads back where its cursor and filter are.
type pickerUnderTest struct {
	name string
	open func(e *screen.Env) screen.Screen
	list func(s screen.Screen) pickList
}

var pickersUnderTest = []pickerUnderTest{
	{"move", func(e *screen.Env) screen.Screen {
		b, _ := StartMove(e, []model.Row{{}}, nil)
		s, _ := screentest.Step(b, FoldersMsg{Req: b.Req, Folders: []string{"INBOX", "Archive", "Junk", "Later", "Projects"}})
		return s
	}, func(s screen.Screen) pickList { return s.(Move).pickList }},
	{"folders", func(e *screen.Env) screen.Screen {
		p, _ := NewFolders(e, 0, &screentest.Account{Label: "Work"})
		var fs []model.Folder
		for _, n := range []string{"Archive", "Junk", "Later", "Projects"} {
			fs = append(fs, model.Folder{Name: n})
		}
		s, _ := screentest.Step(p, FolderListMsg{req: p.req, folders: fs})
		return s
	}, func(s screen.Screen) pickList { return s.(Folders).pickList }},
}

// In both pickers the list's keys (j/k, g/G, the arrows, as the KeyMap
// binds them) move, and only the filter key (/) starts typing: `o` then
// `j` once narrowed to Junk, and enter opened it. While typing, a letter
// is text and ? too; the arrows still move; esc leaves the filter (its
// text cleared) before it leaves the picker.
func TestPickersMoveByTheListsKeysAndFilterAfterSlash(t *testing.T) {
	for _, p := range pickersUnderTest {
		t.Run(p.name, func(t *testing.T) {
			s := p.open(screentest.Env(t))
			var said []tea.Msg
			for _, step := range []struct {
				key    tea.KeyMsg
				cursor int
				filter string
			}{
				{screentest.Typed("j"), 1, ""},
				{screentest.Typed("j"), 2, ""},
				{screentest.Typed("k"), 1, ""},
				{screentest.Typed("G"), 4, ""},
				{screentest.Typed("g"), 0, ""},
				{tea.KeyMsg{Type: tea.KeyDown}, 1, ""},
				{tea.KeyMsg{Type: tea.KeyPgDown}, 4, ""},
				{tea.KeyMsg{Type: tea.KeyPgUp}, 0, ""},
				{screentest.Typed("x"), 0, ""}, // no key of the picker: nothing
				{screentest.Typed("/"), 0, ""},
				{screentest.Typed("j"), 0, "j"}, // Junk, Projects
				{tea.KeyMsg{Type: tea.KeyDown}, 1, "j"},
				{screentest.Typed("?"), 0, "j?"},
				{tea.KeyMsg{Type: tea.KeyBackspace}, 0, "j"},
				{tea.KeyMsg{Type: tea.KeyDown}, 1, "j"},
			} {
				if s, said = screentest.Step(s, step.key); s == nil || len(said) > 0 {
					t.Fatalf("%q ended the picker: %+v", step.key, said)
				}
				if l := p.list(s); l.cursor != step.cursor || l.input.Value() != step.filter {
					t.Fatalf("after %q: cursor %d, filter %q; want %d, %q", step.key, l.cursor, l.input.Value(), step.cursor, step.filter)
				}
			}
			if v := s.View(60, 8); !strings.Contains(v, "> Projects") {
				t.Fatalf("the cursor is not on Projects:\n%s", v)
			}
			if !p.list(s).Typing() {
				t.Fatal("typing the filter does not say so: ? would open the help")
			}
			s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEsc})
			if l := p.list(s); s == nil || len(said) > 0 || l.Typing() || l.input.Value() != "" {
				t.Fatalf("esc in the filter: screen %v, told %+v; want the filter left and cleared", s, said)
			}
			if s, _ = screentest.Step(s, screentest.Typed("j")); p.list(s).cursor != 1 {
				t.Fatal("after esc, j does not move again")
			}
			if s, said = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEsc}); s != nil {
				t.Fatalf("the second esc did not leave the picker: %+v", said)
			}
		})
	}
}

// The keys are the KeyMap's: rebound under [keys], the new keys move and
// filter, the old letters are nothing (not text), and the help names the
// new keys.
func TestPickersFollowRebinding(t *testing.T) {
	for _, p := range pickersUnderTest {
		t.Run(p.name, func(t *testing.T) {
			e := screentest.Env(t)
			if err := e.Keys.Rebind(map[string][]string{"down": {"ctrl+j"}, "up": {"ctrl+k"}, "filter": {"f"}, "bottom": {"E"}}); err != nil {
				t.Fatal(err)
			}
			s := p.open(e)
			for _, step := range []struct {
				key    tea.KeyMsg
				cursor int
				filter string
			}{
				{tea.KeyMsg{Type: tea.KeyCtrlJ}, 1, ""},
				{screentest.Typed("j"), 1, ""},
				{screentest.Typed("E"), 4, ""},
				{tea.KeyMsg{Type: tea.KeyCtrlK}, 3, ""},
				{screentest.Typed("/"), 3, ""},
				{screentest.Typed("f"), 3, ""},
				{screentest.Typed("la"), 0, "la"}, // Later
			} {
				s, _ = screentest.Step(s, step.key)
				if l := p.list(s); l.cursor != step.cursor || l.input.Value() != step.filter {
					t.Fatalf("after %q: cursor %d, filter %q; want %d, %q", step.key, l.cursor, l.input.Value(), step.cursor, step.filter)
				}
			}
			s, _ = screentest.Step(s, tea.KeyMsg{Type: tea.KeyEsc})
			var help []string
			for _, b := range s.ShortHelp() {
				help = append(help, b.Help().Key)
			}
			if got := strings.Join(help, " "); !strings.Contains(got, "f ctrl+j ctrl+k") {
				t.Fatalf("the help names %q, not the rebound keys", got)
			}
		})
	}
}
