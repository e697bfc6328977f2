// Package screening is the screener's view (W, issue 40): the mail from
// new senders that the accounts with a screener hold back from the
// inbox, newest first, and the person's decision on each sender: y lets
// them in (their mail, past and future, is in the inbox), n screens them
// out (their mail goes where screen_out says), N screens out their whole
// domain after asking once. enter reads a message first.
package screening

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/screener"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// View is the screener's screen.
type View struct {
	e       *screen.Env
	keys    screen.KeyMap
	styles  screen.Styles
	accts   []screen.Account
	items   []item
	trouble []string // accounts whose screener could not be read, and why
	cursor  int
	loaded  bool
	ask     string // the domain whose N was pressed once
	busy    string // what a decision under way is doing
}

// item is one message waiting, with its account's index.
type item struct {
	acct int
	m    model.Message
}

// LoadedMsg is what every screening account holds back now.
type LoadedMsg struct {
	items   []item
	trouble []string
}

// DecidedMsg is a decision's end: what the status line says, and the
// account whose inbox shows different mail now. The root says it, loads
// the account and hands it on to the view, which reads what waits again.
type DecidedMsg struct {
	Account int
	Text    string
	Err     error
}

// OpenMsg asks the root to show a waiting message in the message view;
// back there returns to the screener.
type OpenMsg struct{ Row model.Row }

// New opens the view over accts (every configured account: those
// without a screener have nothing in it) and reads what waits.
func New(e *screen.Env, accts []screen.Account) (View, tea.Cmd) {
	v := View{e: e, keys: e.Keys, styles: e.Styles, accts: accts}
	return v, v.Load()
}

// Load reads again what waits in every account's screener.
func (v View) Load() tea.Cmd {
	ctx, accts := v.e.Ctx, v.accts
	return func() tea.Msg {
		var out LoadedMsg
		for i, a := range accts {
			s := screen.ScreenerOf(a)
			if s == nil {
				continue
			}
			pending, err := s.Pending(ctx)
			if err != nil {
				out.trouble = append(out.trouble, a.Name()+": "+err.Error())
				continue
			}
			for _, m := range pending {
				out.items = append(out.items, item{acct: i, m: m})
			}
		}
		sortNewest(out.items)
		return out
	}
}

func sortNewest(items []item) {
	slices.SortStableFunc(items, func(a, b item) int { return b.m.Date.Compare(a.m.Date) })
}

// Update takes keys and the view's own messages.
func (v View) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		v.items, v.trouble, v.loaded = msg.items, msg.trouble, true
		v.cursor = min(v.cursor, max(len(v.items)-1, 0))
		return v, nil
	case DecidedMsg: // the root said it and loads the account's inbox
		v.busy = ""
		return v, v.Load()
	case tea.KeyMsg:
		return v.key(msg)
	}
	return v, nil
}

func (v View) key(k tea.KeyMsg) (screen.Screen, tea.Cmd) {
	asked := v.ask
	v.ask = ""
	switch {
	case key.Matches(k, v.keys.Back, v.keys.Quit, v.keys.Screener):
		return nil, nil
	case key.Matches(k, v.keys.Down):
		v.cursor = min(v.cursor+1, max(len(v.items)-1, 0))
	case key.Matches(k, v.keys.Up):
		v.cursor = max(v.cursor-1, 0)
	case key.Matches(k, v.keys.Open):
		if it, ok := v.selected(); ok {
			return screen.Tell(v, OpenMsg{Row: model.Row{Message: it.m}}), nil
		}
	case key.Matches(k, v.keys.ScreenIn, v.keys.ScreenOut, v.keys.ScreenOutDomain):
		return v.decide(k, asked)
	}
	return v, nil
}

// decide carries out y, n or N on the selected message's sender.
func (v View) decide(k tea.KeyMsg, asked string) (screen.Screen, tea.Cmd) {
	it, ok := v.selected()
	if !ok || v.busy != "" {
		return v, nil
	}
	s := screen.ScreenerOf(v.accts[it.acct])
	if s == nil {
		return v, nil
	}
	addr := screener.Key(it.m.From.Address)
	name := v.accts[it.acct].Name()
	if addr == "" {
		return screen.Tell(v, screen.NoteMsg{Text: "this message has no From address: nothing to decide on", Bad: true}), nil
	}
	ctx, i := v.e.Ctx, it.acct
	switch {
	case key.Matches(k, v.keys.ScreenIn):
		if it.m.Screened == model.ScreenForged {
			return screen.Tell(v, screen.NoteMsg{Bad: true, Text: fmt.Sprintf("%s fails DMARC at your server: its From may be forged, so y does not let it in (%s reads it)",
				textsafe.Line(it.m.From.Address), screen.Hint(v.keys.Open))}), nil
		}
		v.busy = "letting in " + addr
		return v, func() tea.Msg {
			err := s.LetIn(ctx, addr)
			return DecidedMsg{Account: i, Text: fmt.Sprintf("%s let in (%s): their mail is in the inbox", textsafe.Line(addr), name), Err: err}
		}
	case key.Matches(k, v.keys.ScreenOut):
		v.busy = "screening out " + addr
		return v, outCmd(ctx, s.ScreenOut, i, addr, name)
	}
	domain := screener.Domain(addr)
	if domain == "" {
		return v, nil
	}
	if asked != domain {
		v.ask = domain
		return v, nil
	}
	v.busy = "screening out " + domain
	return v, outCmd(ctx, s.ScreenOut, i, domain, name)
}

func outCmd(ctx context.Context, out func(context.Context, string) (int, error), i int, who, name string) tea.Cmd {
	return func() tea.Msg {
		n, err := out(ctx, who)
		text := fmt.Sprintf("%s screened out (%s): %s moved out of the inbox; their new mail follows", textsafe.Line(who), name, screen.Count(n, "message"))
		if err != nil && n > 0 {
			err = fmt.Errorf("%s screened out, %d moved; %w", textsafe.Line(who), n, err)
		}
		return DecidedMsg{Account: i, Text: text, Err: err}
	}
}

func (v View) selected() (item, bool) {
	if v.cursor < 0 || v.cursor >= len(v.items) {
		return item{}, false
	}
	return v.items[v.cursor], true
}

// View draws one line per waiting message.
func (v View) View(width, height int) string {
	lines := make([]string, 0, height)
	for _, t := range v.trouble {
		lines = append(lines, v.styles.StatusError.Render(textsafe.Fit(textsafe.Line(t), width)))
	}
	switch {
	case v.ask != "":
		lines = append(lines, v.styles.StatusError.Render(textsafe.Fit(fmt.Sprintf("%s again screens out every sender at %s not let in or written to", screen.Hint(v.keys.ScreenOutDomain), textsafe.Line(v.ask)), width)))
	case v.busy != "":
		lines = append(lines, v.styles.Dim.Render(textsafe.Fit(v.busy+"…", width)))
	}
	if v.loaded && len(v.items) == 0 {
		lines = append(lines, v.styles.Dim.Render("Nobody waits in the screener."))
	}
	for i, it := range v.items {
		if len(lines) >= height {
			break
		}
		mark := "  "
		if i == v.cursor {
			mark = "> "
		}
		line := textsafe.Fit(mark+v.describe(it), width)
		if i == v.cursor {
			line = v.styles.RowSelected.Render(line)
		}
		lines = append(lines, line)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// describe is an item's line: whose, from whom, what, when, and why it
// waits when that is not simply a new sender.
func (v View) describe(it item) string {
	m := it.m
	from := textsafe.Line(m.From.Address)
	if n := textsafe.Line(m.From.Name); n != "" {
		from = n + " <" + from + ">"
	}
	why := ""
	switch m.Screened {
	case model.ScreenForged:
		why = " · fails DMARC: From may be forged"
	case model.ScreenOut:
		why = " · screened out, leaving"
	}
	unread := " "
	if !m.Seen {
		unread = "●"
	}
	return fmt.Sprintf("%s %s · %s · %s · %s%s", unread, v.accts[it.acct].Name(), from, textsafe.Line(m.Subject), screen.Ago(v.e.Opts.Now(), m.Date), why)
}

// Header names the view, what waits and its keys.
func (v View) Header() string {
	k := v.keys
	return fmt.Sprintf("screener · %s · %s let in · %s screen out · %s domain · %s read · %s back", screen.Count(len(v.items), "message"),
		screen.Hint(k.ScreenIn), screen.Hint(k.ScreenOut), screen.Hint(k.ScreenOutDomain), screen.Hint(k.Open), screen.Hint(k.Back))
}

// ShortHelp and FullHelp are the screener's keys.
func (v View) ShortHelp() []key.Binding {
	k := v.keys
	return []key.Binding{k.ScreenIn, k.ScreenOut, k.ScreenOutDomain, k.Open, k.Down, k.Up, k.Back, k.Help}
}
func (v View) FullHelp() [][]key.Binding { return [][]key.Binding{v.ShortHelp()} }

// ErrNone: no account screens (screener = "new_senders" turns it on).
var ErrNone = errors.New(`no account has a screener (screener = "new_senders" in an account turns it on)`)
