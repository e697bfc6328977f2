package message

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/attach"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// Viewer shows one message: headers and body in a scrollable viewport.
type Viewer struct {
	styles   screen.Styles
	keys     screen.KeyMap  // its scroll keys, as the help names them
	loc      *time.Location // dates are shown in the UI clock's zone
	Viewport viewport.Model // scrolling; drawn by window, not by vp.View
	lines    []string       // what vp holds, as laid out, one per line
	ID       model.MessageID
	Req      uint64 // the open request this view waits for
	loading  bool
	err      string
	body     model.Body
	attach   attachList  // A: the attachments, over the body
	att      attachState // a save or an open under way, and the opener (attach.go)
	// own are the addresses of the message's account (its From and
	// aliases): the invitation card tells whether they are invited.
	own    []string
	invite *invitation // the message's calendar part, read (card.go); nil: none
	// acct and ctx are the account the message is from and the context
	// its follow-up reads run under (the invitation's stored versions).
	acct screen.Account
	ctx  context.Context
}

func New(e *screen.Env, loc *time.Location) Viewer {
	opener := &attach.Opener{Cmd: e.Opts.OpenCmd}
	if len(opener.Cmd) == 0 {
		opener.Cmd = attach.DefaultOpenCmd
	}
	return Viewer{styles: e.Styles, keys: e.Keys, loc: loc, Viewport: viewport.New(80, 20), att: attachState{e: e, opener: opener}}
}

// Close removes the private copies of the attachments it opened.
func (v Viewer) Close() error { return v.att.opener.Close() }

func (v Viewer) SetSize(w, h int) Viewer {
	v.Viewport.Width, v.Viewport.Height = w, h
	if !v.loading {
		v = v.setText(v.content())
	}
	return v
}

// Showing is the message on screen (loaded or still loading).
func (v Viewer) Showing() model.MessageID { return v.ID }

// Open starts showing id while its body loads from acct; the viewer waits
// for the answer to its own request.
func (v Viewer) Open(e *screen.Env, acct screen.Account, id model.MessageID) (Viewer, tea.Cmd) {
	v.ID, v.Req, v.loading, v.err, v.body, v.attach, v.invite = id, e.Next(), true, "", model.Body{}, attachList{}, nil
	v.own, v.acct, v.ctx = nil, acct, e.Ctx
	if c, ok := screen.ComposerOf(acct); ok {
		from, aliases := c.Identity()
		if from != nil {
			v.own = append(v.own, from.Address)
		}
		v.own = append(v.own, aliases...)
	}
	v = v.setText("")
	v.Viewport.GotoTop()
	return v, openCmd(e.Ctx, acct, v.Req, id, e.Opts.CallTimeout)
}

// opened shows the body the open request brought; an answer to an earlier
// request (a message left before it loaded) is dropped.
func (v Viewer) opened(msg OpenedMsg) Viewer {
	if msg.Req != v.Req {
		return v
	}
	return v.loaded(msg.Body, msg.err)
}

func (v Viewer) loaded(b model.Body, err error) Viewer {
	v.loading = false
	if err != nil {
		v.err = err.Error()
	} else {
		v.body, v.invite = b, v.readInvitation(b)
	}
	v = v.setText(v.content())
	v.Viewport.GotoTop()
	return v
}

// setText gives the viewport its content (for scrolling) and keeps it to
// draw.
func (v Viewer) setText(text string) Viewer {
	v.lines = strings.Split(text, "\n")
	v.Viewport.SetContent(text)
	return v
}

// Update scrolls by the KeyMap's bindings, which the help and the header
// name (rebound under [keys] with the list's); the viewport's own keys
// (space, b, the mouse wheel) still work beside them.
func (v Viewer) Update(msg tea.Msg) (Viewer, tea.Cmd) {
	switch msg := msg.(type) {
	case OpenedMsg:
		v = v.opened(msg)
		return v, v.recallCmd()
	case EventsMsg:
		return v.recalled(msg), nil
	}
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, v.keys.Down):
			v.Viewport.ScrollDown(1)
			return v, nil
		case key.Matches(k, v.keys.Up):
			v.Viewport.ScrollUp(1)
			return v, nil
		case key.Matches(k, v.keys.PageDown):
			v.Viewport.PageDown()
			return v, nil
		case key.Matches(k, v.keys.PageUp):
			v.Viewport.PageUp()
			return v, nil
		}
	}
	var cmd tea.Cmd
	v.Viewport, cmd = v.Viewport.Update(msg)
	return v, cmd
}

func (v Viewer) content() string {
	if v.err != "" {
		// Wrapped, not cut: the end says why there is nothing to show
		// (offline, and the body is not stored).
		return v.styles.StatusError.Width(max(v.Viewport.Width, 20)).Render("Could not open the message: " + textsafe.Line(v.err))
	}
	b := v.body
	w := max(v.Viewport.Width, 20)
	var out strings.Builder
	for _, l := range v.headerLines(w) {
		out.WriteString(l)
		out.WriteByte('\n')
	}
	out.WriteString(screen.Rule(w))
	out.WriteByte('\n')
	if card := v.cardLines(w); len(card) > 0 {
		for _, l := range card {
			out.WriteString(l)
			out.WriteByte('\n')
		}
		out.WriteString(screen.Rule(w))
		out.WriteByte('\n')
	}
	out.WriteString(screen.Wrap(textsafe.Block(b.Text), w))
	return out.String()
}

// View draws the message in the size it is given. The text is wrapped
// once, in setSize, for the size the layout gives the body; a view at
// another size lays out a copy for that frame.
func (v Viewer) View(width, height int) string {
	if width != v.Viewport.Width || height != v.Viewport.Height {
		v = v.SetSize(width, height)
	}
	if v.loading {
		return v.styles.Dim.Render("Loading message…") + strings.Repeat("\n", max(0, v.Viewport.Height-1))
	}
	if v.attach.open {
		return v.attachments(width, height)
	}
	return v.window()
}

// Header names the view and its keys.
func (v Viewer) Header() string {
	h := fmt.Sprintf("message · %s/%s scroll · %s back", screen.LastHint(v.keys.Up), screen.LastHint(v.keys.Down), screen.Hint(v.keys.Back))
	if v.invite != nil && v.invite.card.Answerable && !v.loading {
		h += fmt.Sprintf(" · %s answer invitation", screen.Hint(v.keys.Invitation))
	}
	switch n := len(v.body.Attachments); {
	case v.loading || n == 0:
	case n == 1:
		h += fmt.Sprintf(" · %s 1 attachment · %s save", screen.Hint(v.keys.Attachments), screen.Hint(v.keys.SaveAttachment))
	default:
		h += fmt.Sprintf(" · %s %d attachments", screen.Hint(v.keys.Attachments), n)
	}
	return h
}

// ShortHelp and FullHelp are the viewer's keys, for the help.
func (v Viewer) ShortHelp() []key.Binding {
	k := v.keys
	return []key.Binding{k.Back, k.Down, k.Up, k.PageDown, k.PageUp, k.Help}
}
func (v Viewer) FullHelp() [][]key.Binding {
	k := v.keys
	return [][]key.Binding{v.ShortHelp(),
		// What acts on the message on screen, as in the list (screens.go's
		// row of the message view), and the steps through its thread.
		{k.Archive, k.Trash, k.ToggleRead, k.ToggleFlag, k.Move, k.Snooze, k.Undo, k.Unsubscribe, k.Invitation},
		{k.NextInThread, k.PrevInThread, k.Reply, k.ReplyAll, k.Forward, k.Compose, k.Attachments, k.SaveAttachment}}
}

// body is the message on screen, once it has loaded (for an answer).
func (v Viewer) Answerable() (model.Body, bool) {
	return v.body, !v.loading && v.err == "" && v.body.ID == v.ID
}

// window is the viewport's visible lines, exactly Height of them, drawn as
// laid out. viewport.View would pad each line with lipgloss, whose width
// (charmbracelet/x/ansi) counts Indic spacing marks as zero columns where
// terminals draw one: a subject in Hindi came out wider than the screen,
// wrapped, and scrolled the account bar away. Lines here are already cut
// to the width by textsafe; the renderer clears what is left of a shorter
// line.
func (v Viewer) window() string {
	top := min(max(v.Viewport.YOffset, 0), len(v.lines))
	shown := make([]string, v.Viewport.Height)
	copy(shown, v.lines[top:])
	return strings.Join(shown, "\n")
}

func openCmd(ctx context.Context, a screen.Account, req uint64, id model.MessageID, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		body, err := a.Get(cctx, id)
		return OpenedMsg{Req: req, ID: id, Body: body, err: err}
	}
}

func (m OpenedMsg) AccountIndex() int { return screen.NoAccount }

// OpenedMsg is a message opened for reading.
type OpenedMsg struct {
	Req  uint64
	ID   model.MessageID
	Body model.Body
	err  error
}
