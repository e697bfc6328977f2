package picker

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// Move is the move flow: it asks the accounts of the rows for their
// folders, lets the user move among them by the list's keys and narrow
// them by a filter (/), and ends with a folder picked (the KeyMap's
// open) or the move cancelled (back).
type Move struct {
	styles   screen.Styles
	keys     screen.KeyMap
	pickList             // the filter typed and the cursor among its matches
	rows     []model.Row // what the move applies to
	Req      uint64      // the folders request this picker waits for
	all      []string
	loading  bool
	err      string
}

// StartMove opens a picker for moving rows and asks accts (the accounts
// the rows are in) for their folders, as request req.
func StartMove(e *screen.Env, rows []model.Row, accts []screen.Account) (Move, tea.Cmd) {
	b := Move{styles: e.Styles, keys: e.Keys, pickList: newPickList(e.Keys, "move to: "), rows: rows, Req: e.Next(), loading: true}
	return b, foldersCmd(e.Ctx, accts, b.Req, e.Opts.CallTimeout)
}

func (b Move) matches() []string {
	q := strings.ToLower(b.input.Value())
	var out []string
	for _, f := range b.all {
		if q == "" || strings.Contains(strings.ToLower(f), q) {
			out = append(out, f)
		}
	}
	return out
}

// Update takes the folders its request asked for (an answer to an
// earlier move is dropped) and the keys. It ends (nil) with the folder
// picked, told as a movePickedMsg, or the move cancelled, told as a note.
func (b Move) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case FoldersMsg:
		if msg.Req == b.Req {
			b.loading, b.all = false, msg.Folders
			if msg.err != nil {
				b.err = accounts.Reason(msg.err)
			}
		}
		return b, nil
	case tea.KeyMsg:
		m := b.matches()
		done, picked, cmd := b.key(msg, len(m))
		switch {
		case !done:
			return b, cmd
		case picked < 0:
			return screen.Tell(nil, screen.NoteMsg{Text: "move cancelled"}), cmd
		}
		return screen.Tell(nil, MovePickedMsg{Folder: m[picked], Rows: b.rows}), nil
	}
	return b, nil
}

func (b Move) View(width, height int) string {
	var s strings.Builder
	s.WriteString(b.input.View())
	s.WriteByte('\n')
	switch {
	case b.loading:
		s.WriteString(b.styles.Dim.Render("loading folders…"))
	case b.err != "" && len(b.all) == 0:
		s.WriteString(b.styles.StatusError.Render(textsafe.Fit(b.err, width)))
	default:
		ms := b.matches()
		off := 0
		if b.cursor >= height-2 {
			off = b.cursor - (height - 3)
		}
		for i := off; i < len(ms) && i-off < height-1; i++ {
			line := "  " + textsafe.Line(ms[i])
			if i == b.cursor {
				line = b.styles.RowSelected.Render(textsafe.Fit("> "+textsafe.Line(ms[i]), width))
			}
			s.WriteString(line)
			s.WriteByte('\n')
		}
	}
	return screen.FitLines(strings.TrimRight(s.String(), "\n"), height)
}

// Header names the move and its keys.
func (b Move) Header() string { return pickHeader("move", len(b.rows), "", b.keys) }

// ShortHelp and FullHelp are the picker's keys, for the help.
func (b Move) ShortHelp() []key.Binding  { return b.help("move here") }
func (b Move) FullHelp() [][]key.Binding { return b.fullHelp("move here") }

// MovePickedMsg: the move picker ended with a folder for rows.
type MovePickedMsg struct {
	Folder string
	Rows   []model.Row
}

// foldersCmd fetches the folder lists of the given accounts and merges them.
func foldersCmd(ctx context.Context, accts []screen.Account, req uint64, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		seen := map[string]bool{}
		var names []string
		var firstErr error
		for _, a := range accts {
			fs, err := a.Folders(cctx)
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("%s: %w", a.Name(), err)
				}
				continue
			}
			for _, f := range fs {
				if !seen[f.Name] {
					seen[f.Name] = true
					names = append(names, f.Name)
				}
			}
		}
		sort.Strings(names)
		return FoldersMsg{Req: req, Folders: names, err: firstErr}
	}
}

func (m FoldersMsg) AccountIndex() int { return screen.NoAccount }

// FoldersMsg lists the folders of the accounts a move involves.
type FoldersMsg struct {
	Req     uint64
	Folders []string
	err     error
}

// pickHeader is a picker's header over n rows: "move 2 messages · enter
// pick · esc cancel".
func pickHeader(verb string, n int, what string, keys screen.KeyMap) string {
	return fmt.Sprintf("%s %s%s · %s pick · %s cancel", verb, screen.Count(n, "message"), what, screen.Hint(keys.Open), screen.Hint(keys.Back))
}
