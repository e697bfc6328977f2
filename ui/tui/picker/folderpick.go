package picker

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// Folders is `o`: the focused account's folders with their unread
// counts, moved through by the list's keys and narrowed by a filter (/),
// as Move is. It shows the store's list at once (it never
// waits on the server, and offline it is all there is), and the server's
// list_folders when it answers. INBOX is always first: choosing it goes
// back to the unified inbox.
type Folders struct {
	styles   screen.Styles
	keys     screen.KeyMap
	pickList // the filter typed and the cursor among its matches
	account  int
	name     string // the account's
	req      uint64
	folders  []model.Folder
	served   bool // the server's list came: the store's (slower) is dropped
	offline  bool // the account is down: the store's list is all there is
	loading  bool
	err      string
}

// FolderListMsg is a list of one account's folders: the store's or the
// server's.
type FolderListMsg struct {
	req     uint64
	stored  bool
	folders []model.Folder
	err     error
}

func (FolderListMsg) AccountIndex() int { return screen.NoAccount }

func NewFolders(e *screen.Env, i int, a screen.Account) (Folders, tea.Cmd) {
	p := Folders{styles: e.Styles, keys: e.Keys, pickList: newPickList(e.Keys, "folder: "), account: i, name: a.Name(), req: e.Next(), loading: true,
		folders: inboxFirst(nil)} // the way back is there before any list comes
	var cmds []tea.Cmd
	c := screen.CountingOf(a)
	if s := screen.StoredOf(a); s != nil {
		cmds = append(cmds, func() tea.Msg {
			sctx, cancel := context.WithTimeout(e.Ctx, foldersTimeout)
			defer cancel()
			fs, err := s.Folders(sctx)
			return FolderListMsg{req: p.req, stored: true, folders: counted(sctx, c, fs, true), err: err}
		})
	}
	p.offline = a.Health().Degraded()
	if !p.offline {
		ctx, timeout := e.Ctx, e.Opts.CallTimeout
		cmds = append(cmds, func() tea.Msg {
			cctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			fs, err := a.Folders(cctx)
			return FolderListMsg{req: p.req, folders: counted(cctx, c, fs, false), err: err}
		})
	}
	return p, tea.Batch(cmds...)
}

// listed takes a folder list: the server's replaces the store's.
func (p Folders) listed(msg FolderListMsg) Folders {
	if msg.req != p.req || msg.stored && p.served {
		return p
	}
	if msg.err != nil {
		switch {
		case !msg.stored:
			p.err, p.loading = accounts.Reason(msg.err), false
		case p.offline: // nothing else will come
			p.err, p.loading = p.name+" is offline and the local store holds none of its folders", false
		}
		return p
	}
	p.loading = p.loading && msg.stored && len(msg.folders) == 0
	p.served = p.served || !msg.stored
	p.folders = inboxFirst(msg.folders)
	p.cursor = min(p.cursor, max(0, len(p.matches())-1))
	return p
}

// counted puts the account's own counts (accounts.Counting) over a folder
// list: INBOX's always, so the picker says what the badge says; from the
// store's list, any other folder counted since (a visit's sync), which is
// newer than its stored rows. c nil: the list stands.
func counted(ctx context.Context, c *accounts.Counting, fs []model.Folder, stored bool) []model.Folder {
	if c == nil {
		return fs
	}
	for i, f := range fs {
		var n accounts.Count
		var ok bool
		switch {
		case model.CanonicalFolder(f.Name) == "INBOX":
			n, ok = c.Known(ctx, "")
		case stored:
			n, ok = c.Last(f.Name)
		}
		if ok {
			fs[i].Unread, fs[i].Inexact = uint32(n.Unread), !n.Exact
		}
	}
	return fs
}

// inboxFirst sorts folders by name with INBOX first, and adds INBOX when
// the list lacks it (the store's before any sync): it is the way back.
func inboxFirst(fs []model.Folder) []model.Folder {
	out := slices.Clone(fs)
	if !slices.ContainsFunc(out, func(f model.Folder) bool { return model.CanonicalFolder(f.Name) == "INBOX" }) {
		out = append(out, model.Folder{Name: "INBOX"})
	}
	slices.SortStableFunc(out, func(a, b model.Folder) int {
		ai, bi := model.CanonicalFolder(a.Name) == "INBOX", model.CanonicalFolder(b.Name) == "INBOX"
		if ai != bi {
			if ai {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}

func (p Folders) matches() []model.Folder {
	q := strings.ToLower(p.input.Value())
	var out []model.Folder
	for _, f := range p.folders {
		if q == "" || strings.Contains(strings.ToLower(f.Name), q) {
			out = append(out, f)
		}
	}
	return out
}

// Update takes the folder lists and the keys. It ends (nil) with a
// folder chosen, told as a folderPickedMsg, or cancelled.
func (p Folders) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case FolderListMsg:
		return p.listed(msg), nil
	case tea.KeyMsg:
		m := p.matches()
		done, picked, cmd := p.key(msg, len(m))
		switch {
		case !done:
			return p, cmd
		case picked < 0:
			return nil, nil
		}
		return screen.Tell(nil, FolderPickedMsg{Account: p.account, Folder: m[picked].Name}), nil
	}
	return p, nil
}

func (p Folders) View(width, height int) string {
	var s strings.Builder
	s.WriteString(p.input.View())
	s.WriteByte('\n')
	ms := p.matches()
	switch {
	case p.loading && len(p.folders) <= 1 && len(ms) == 0:
		s.WriteString(p.styles.Dim.Render("loading folders…"))
	default:
		off := 0
		if p.cursor >= height-2 {
			off = p.cursor - (height - 3)
		}
		for i := off; i < len(ms) && i-off < height-1; i++ {
			line := textsafe.Line(ms[i].Name)
			if ms[i].Unread > 0 {
				line += "  " + accounts.Count{Unread: int(ms[i].Unread), Exact: !ms[i].Inexact}.String() + " unread"
			}
			if i == p.cursor {
				s.WriteString(p.styles.RowSelected.Render(textsafe.Fit("> "+line, width)))
			} else {
				s.WriteString(textsafe.Fit("  "+line, width))
			}
			s.WriteByte('\n')
		}
	}
	return screen.FitLines(strings.TrimRight(s.String(), "\n"), height)
}

// Header names the account and what the keys do; the store's list says
// it is the store's until the server's comes.
func (p Folders) Header() string {
	h := fmt.Sprintf("folders of %s · %s show · %s cancel", p.name, screen.Hint(p.keys.Open), screen.Hint(p.keys.Back))
	if !p.served && len(p.folders) > 1 {
		h += " · from the local store"
		if p.offline {
			h += " (offline)"
		}
	}
	if p.err != "" {
		h += " · " + p.err
	}
	return h
}

func (p Folders) ShortHelp() []key.Binding  { return p.help("show folder") }
func (p Folders) FullHelp() [][]key.Binding { return p.fullHelp("show folder") }

// foldersTimeout bounds a folder list read from the store.
const foldersTimeout = 2 * time.Second

// FolderPickedMsg: the folder picker ended with a folder of account.
type FolderPickedMsg struct {
	Account int
	Folder  string
}
