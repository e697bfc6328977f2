// Package proposals is P (issue 40): the rules agents proposed, for the
// person's review. Each shows the rule as the rules file would have it,
// the agent's reason (untrusted text, shown as text) and what the rule
// would do to the mail stored now (the dry run), before y accepts it into
// the rules file or x rejects it. An accept over a rules file changed
// since it was read writes nothing and says so; the view reads again.
package proposals

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/proposing"
	"unibox/accounts/rulesfile"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// View is the proposals' screen.
type View struct {
	e      *screen.Env
	keys   screen.KeyMap
	styles screen.Styles
	desk   *proposing.Desk
	shown  []proposing.Shown
	err    string // why they could not be read
	cursor int
	loaded bool
	busy   bool
	// note is said over the list once it is read again after an answer:
	// the rules file changed under an accept.
	note string
}

// LoadedMsg is what waits for review, with each dry run.
type LoadedMsg struct {
	shown []proposing.Shown
	err   error
}

// AnsweredMsg is an accept's or a reject's end: the root says Text (or
// Err) and recounts what waits; the view reads again.
type AnsweredMsg struct {
	Text string
	Err  error
}

// New opens the view and reads the proposals.
func New(e *screen.Env, desk *proposing.Desk) (View, tea.Cmd) {
	v := View{e: e, keys: e.Keys, styles: e.Styles, desk: desk}
	return v, v.load()
}

func (v View) load() tea.Cmd {
	ctx, desk := v.e.Ctx, v.desk
	return func() tea.Msg {
		shown, err := desk.Pending(ctx)
		return LoadedMsg{shown: shown, err: err}
	}
}

// Update takes keys and the view's own messages.
func (v View) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		v.shown, v.loaded, v.err = msg.shown, true, ""
		if msg.err != nil {
			v.err = msg.err.Error()
		}
		v.cursor = min(v.cursor, max(len(v.shown)-1, 0))
		return v, nil
	case AnsweredMsg:
		v.busy, v.loaded, v.note = false, false, ""
		if errors.Is(msg.Err, rulesfile.ErrChanged) {
			v.note = "The rules file changed since it was shown, so nothing was written: this is it read again; look before y."
		}
		return v, v.load()
	case tea.KeyMsg:
		return v.key(msg)
	}
	return v, nil
}

func (v View) key(k tea.KeyMsg) (screen.Screen, tea.Cmd) {
	switch {
	case key.Matches(k, v.keys.Back, v.keys.Quit, v.keys.Proposals):
		return nil, nil
	case key.Matches(k, v.keys.Down):
		v.cursor = min(v.cursor+1, max(len(v.shown)-1, 0))
	case key.Matches(k, v.keys.Up):
		v.cursor = max(v.cursor-1, 0)
	case key.Matches(k, v.keys.AcceptProposal, v.keys.RejectProposal):
		if v.busy || !v.loaded || v.cursor >= len(v.shown) { // answered on what is shown, never on what is being read
			return v, nil
		}
		s, ctx, desk := v.shown[v.cursor], v.e.Ctx, v.desk
		if key.Matches(k, v.keys.AcceptProposal) && s.Problem != "" {
			return screen.Tell(v, screen.NoteMsg{Bad: true, Text: "this proposal cannot be accepted: " + textsafe.Line(s.Problem)}), nil
		}
		v.busy = true
		if key.Matches(k, v.keys.AcceptProposal) {
			return v, answer(func() error { return desk.Accept(ctx, s) }, fmt.Sprintf("rule %s accepted into the rules file: it acts on new mail from the next sync", quote(s.Name)))
		}
		return v, answer(func() error { return desk.Reject(ctx, s.ID) }, fmt.Sprintf("rule %s rejected", quote(s.Name)))
	}
	return v, nil
}

func answer(do func() error, text string) tea.Cmd {
	return func() tea.Msg { return AnsweredMsg{Text: text, Err: do()} }
}

func quote(s string) string { return "«" + textsafe.Line(s) + "»" }

// View draws one line per proposal, then the selected one whole: the
// rule, the reason, the dry run.
func (v View) View(width, height int) string {
	var lines []string
	add := func(style func(...string) string, s string) {
		lines = append(lines, style(textsafe.Fit(s, width)))
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	if v.err != "" {
		add(v.styles.StatusError.Render, textsafe.Line(v.err))
	}
	if v.loaded && v.note != "" {
		add(v.styles.StatusError.Render, v.note)
	}
	if v.loaded && len(v.shown) == 0 && v.err == "" {
		add(v.styles.Dim.Render, "No rules wait for review: agents propose them with propose_rule.")
	}
	for i, s := range v.shown {
		mark := "  "
		if i == v.cursor {
			mark = "> "
		}
		line := fmt.Sprintf("%s%s · %s · proposed %s", mark, textsafe.Line(s.Name), v.action(s), s.At.In(v.e.Opts.Now().Location()).Format("Jan 2 15:04"))
		if i == v.cursor {
			add(v.styles.RowSelected.Render, line)
		} else {
			add(plain, line)
		}
	}
	if v.cursor < len(v.shown) {
		lines = append(lines, "")
		lines = append(lines, v.detail(v.shown[v.cursor], width)...)
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

func (v View) action(s proposing.Shown) string {
	if s.Problem != "" {
		return "cannot be accepted"
	}
	return fmt.Sprintf("would act on %s", screen.Count(len(s.Would), "stored message"))
}

// detail is the selected proposal: the agent's reason marked as its
// words, the rule's text, and the dry run's messages.
func (v View) detail(s proposing.Shown, width int) []string {
	fit := func(s string) string { return textsafe.Fit(s, width) }
	out := []string{fit("Why, in the agent's words (not yours): " + textsafe.Line(s.Reason))}
	if s.Problem != "" {
		out = append(out, v.styles.StatusError.Render(fit("Cannot be accepted: "+textsafe.Line(s.Problem))))
	}
	for _, l := range strings.Split(strings.TrimRight(s.Proposal.Rule, "\n"), "\n") {
		out = append(out, v.styles.Dim.Render(fit("    "+textsafe.Line(l))))
	}
	if s.Problem == "" {
		out = append(out, fit(fmt.Sprintf("On the mail stored in INBOX now it would act on %s%s:", screen.Count(len(s.Would), "message"), protected(len(s.Protected)))))
	}
	for _, m := range s.Would {
		out = append(out, fit(fmt.Sprintf("  %s · %s · %s", m.ID.Account, textsafe.Line(m.From.Address), textsafe.Line(m.Subject))))
	}
	return out
}

func protected(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (and spare %s: you wrote to the sender)", screen.Count(n, "message"))
}

// Header names the view and its keys.
func (v View) Header() string {
	k := v.keys
	return fmt.Sprintf("rules proposed by agents · %d to review · %s accept · %s reject · %s back", len(v.shown),
		screen.Hint(k.AcceptProposal), screen.Hint(k.RejectProposal), screen.Hint(k.Back))
}

// ShortHelp and FullHelp are the view's keys.
func (v View) ShortHelp() []key.Binding {
	k := v.keys
	return []key.Binding{k.AcceptProposal, k.RejectProposal, k.Down, k.Up, k.Back, k.Help}
}
func (v View) FullHelp() [][]key.Binding { return [][]key.Binding{v.ShortHelp()} }

// Count reads how many proposals wait, for the list's header.
func Count(ctx context.Context, desk *proposing.Desk) (int, error) {
	return desk.Book.PendingProposals(ctx)
}
