package compose

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/drafting"
	mailcompose "unibox/model/compose"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// The review's attach key: a prompt for a path (tab completes a file
// name: complete.go), then the file checked and copied into the draft's
// folder and its Attach line added to the draft's text, in a command:
// a big file or a slow disk never stops the screen, which scrolls and
// leaves meanwhile, and waits only to send, edit, postpone or discard
// until the copy is done. A file refused leaves the draft as it was.

// attachPrompt is the path being asked for.
type attachPrompt struct {
	input   textinput.Model
	choices []string // the names the last completion found, when several
	more    int
}

func newAttachPrompt() *attachPrompt {
	in := textinput.New()
	in.Prompt = "attach: "
	in.Placeholder = "a file's path (~/ is your home)"
	in.Cursor.SetMode(cursor.CursorStatic)
	in.CharLimit = 4096
	in.Focus()
	return &attachPrompt{input: in}
}

// AttachedMsg: the file at Path is copied into the draft's folder and
// named on an Attach line; review is the draft read back with it. Err:
// it was not, and the draft is as it was.
type AttachedMsg struct {
	DraftID, Path string
	review        ReviewMsg
	Err           error
}

func (m AttachedMsg) AccountIndex() int { return screen.NoAccount }

// attachCmd attaches the file written names to draft id: checked and
// copied first (drafting.AttachFile), then its line added to the text
// (mailcompose.WithAttach), so a refusal at either step changes nothing.
func attachCmd(room *screen.Mailroom, id, written string, base mailcompose.Draft) tea.Cmd {
	written = strings.TrimSpace(written)
	return func() tea.Msg {
		fail := func(err error) tea.Msg { return AttachedMsg{DraftID: id, Path: written, Err: err} }
		dr, text, err := room.Box.Draft(id)
		if err != nil {
			return fail(fmt.Errorf("the draft cannot be read: %w", err))
		}
		next, err := mailcompose.WithAttach(string(text), written)
		if err != nil {
			return fail(&drafting.AttachError{Path: written, Err: err})
		}
		if _, err := drafting.AttachFile(room.Box, id, written, drafting.SizeLimit(room.Box, dr.Account)); err != nil {
			return fail(err)
		}
		if err := room.Box.SaveDraft(dr, []byte(next)); err != nil {
			return fail(fmt.Errorf("the draft's text was not changed: %w", err))
		}
		review, _ := readDraftCmd(room, id, base)().(ReviewMsg)
		return AttachedMsg{DraftID: id, Path: written, review: review}
	}
}

// promptKey is a key while the prompt is up: open attaches the path,
// back leaves it, complete completes it; any other key is the path's.
func (c Composer) promptKey(k tea.KeyMsg) (Composer, tea.Cmd) {
	p := c.prompt
	switch {
	case key.Matches(k, c.keys.Back):
		c.prompt = nil
		return c, nil
	case key.Matches(k, c.keys.Open):
		c.prompt = nil
		path := strings.TrimSpace(p.input.Value())
		if path == "" {
			return c, nil
		}
		c.attaching = path
		return c, attachCmd(c.e.Opts.Mailroom, c.Draft.ID, path, c.base)
	case key.Matches(k, c.keys.Complete):
		return c, completeCmd(p.input.Value())
	}
	next := *p
	var cmd tea.Cmd
	next.input, cmd = next.input.Update(k)
	next.choices, next.more = nil, 0
	c.prompt = &next
	return c, cmd
}

// completed takes a completion of the prompt's value, unless it changed.
func (c Composer) completed(msg CompletedMsg) Composer {
	if c.prompt == nil || c.prompt.input.Value() != msg.Value {
		return c
	}
	next := *c.prompt
	next.input.SetValue(msg.To)
	next.input.CursorEnd()
	next.choices, next.more = msg.Choices, msg.More
	c.prompt = &next
	return c
}

// attached ends the copy: the draft reviewed again with its new file,
// or the refusal said, the draft as it was.
func (c Composer) attached(msg AttachedMsg) (Composer, tea.Cmd) {
	if msg.DraftID != c.Draft.ID {
		return c, nil
	}
	c.attaching = ""
	if msg.Err != nil {
		c.say("not attached: "+msg.Err.Error(), true)
		return c, nil
	}
	c.say("attached "+textsafe.Line(filepath.Base(msg.Path)), false)
	if !c.Review {
		return c, nil // left meanwhile: the draft has it, shown when reopened
	}
	return c.step(msg.review)
}

// promptLines are the prompt's lines on the review, at the top: the
// path, and the names a completion found, each made safe to draw.
func (c Composer) promptLines(width int) []string {
	if c.attaching != "" {
		return []string{c.styles.Dim.Render(textsafe.Fit(textsafe.Line("attaching "+c.attaching+"…"), width))}
	}
	if c.prompt == nil {
		return nil
	}
	out := []string{c.prompt.input.View()}
	if len(c.prompt.choices) > 0 {
		list := strings.Join(c.prompt.choices, "  ")
		if c.prompt.more > 0 {
			list += fmt.Sprintf("  (%d more)", c.prompt.more)
		}
		out = append(out, c.wrapped(c.styles.Dim.Render, textsafe.Line(list), width)...)
	}
	return out
}

// Prompting: the prompt has the keyboard (screen.Typing), so the
// frame's help key is text too.
func (c Composer) Prompting() bool { return c.prompt != nil }

// promptHelp is the prompt's keys, for the header and the help.
func (c Composer) promptHelp() []key.Binding {
	return []key.Binding{screen.As(c.keys.Open, "attach"), c.keys.Complete, screen.As(c.keys.Back, "cancel")}
}
