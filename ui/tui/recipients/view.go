package recipients

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// Line is the prompt on the status line: "To: " and the line typed, in
// width columns.
func (p Prompt) Line(width int) string {
	return ansi.Truncate(p.Resized(width).input.View(), width, "")
}

// View is what goes under the line, in at most height lines: what the
// prompt has to say (a line that does not parse, no match), then the
// contacts listed, each address whole and first, its name after it
// (screen.AddressLines: a name cannot pass for another address), the
// selected one marked. "" when there is neither.
func (p Prompt) View(width, height int) string {
	var out []string
	if p.note != "" && height > 0 {
		style := p.styles.Dim.Render
		if p.bad {
			style = p.styles.StatusError.Render
		}
		out = append(out, style(textsafe.Fit(textsafe.Line(p.note), width)))
	}
	if p.state == Listing {
		out = append(out, p.rows(width, height-len(out))...)
	}
	return strings.Join(out, "\n")
}

// rows are the listed contacts in at most height lines: from the first,
// or from where the selected one still shows, and a line saying how many
// are left out when some are.
func (p Prompt) rows(width, height int) []string {
	if height <= 0 {
		return nil
	}
	room := max(width-2, 1)
	blocks := make([][]string, len(p.matches))
	total := 0
	for i, a := range p.matches {
		lines := screen.AddressLines(a, room, p.styles.Dim.Render)
		for j, l := range lines {
			mark := "  "
			if i == p.sel && j == 0 {
				mark = p.styles.Tag.Render("> ")
			}
			lines[j] = ansi.Truncate(mark+l, width, "")
		}
		blocks[i] = lines
		total += len(lines)
	}
	if total <= height {
		return flatten(blocks)
	}
	avail := max(height-1, 1) // one line says what is left out
	first, used := p.sel, len(blocks[p.sel])
	for first > 0 && used+len(blocks[first-1]) <= avail {
		first--
		used += len(blocks[first])
	}
	last := p.sel + 1
	for last < len(blocks) && used+len(blocks[last]) <= avail {
		used += len(blocks[last])
		last++
	}
	out := flatten(blocks[first:last])
	if len(out) > avail {
		out = out[:avail] // one address longer than the room: its start
	}
	if left := len(blocks) - (last - first); left > 0 && height > 1 {
		out = append(out, p.styles.Dim.Render(textsafe.Fit(fmt.Sprintf("  %d more (%s, %s)", left,
			screen.Hint(p.keys.Complete), screen.Hint(p.keys.CompletePrev)), width)))
	}
	return out
}

func flatten(blocks [][]string) []string {
	var out []string
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out
}

// Header says what the prompt asks, over whatever screen it asks on
// (whose own keys are text until it ends).
func (p Prompt) Header() string {
	k := p.keys
	return fmt.Sprintf("%s: addresses separated by commas · %s completes · %s cancels",
		p.ask.Field, screen.Hint(k.Complete), screen.Hint(k.Back))
}

// ShortHelp and FullHelp are the prompt's keys: every other key is text.
func (p Prompt) ShortHelp() []key.Binding {
	k := p.keys
	if p.state == Listing {
		return []key.Binding{screen.As(k.Complete, "next"), screen.As(k.Open, "take"), screen.As(k.Back, "cancel"),
			screen.As(k.CompletePrev, "previous")} // last: the first a narrow line cuts
	}
	return []key.Binding{screen.As(k.Complete, "complete"), screen.As(k.Open, "done"), screen.As(k.Back, "cancel")}
}

func (p Prompt) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
