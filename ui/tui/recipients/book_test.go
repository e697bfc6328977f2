package recipients

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"go.uber.org/goleak"

	"unibox/model/contact"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screen/screentest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tableBook is a test double of contact.Book for the prompt, not the
// contacts index (another package's): a table in rank order, a contact
// matching when its address, its name or a word of its name starts with
// the query, without case.
type tableBook []contact.Contact

func (b tableBook) Lookup(ctx context.Context, query string, limit int) ([]contact.Contact, error) {
	q := strings.ToLower(query)
	var out []contact.Contact
	for _, c := range b {
		words := append([]string{strings.ToLower(c.Address), strings.ToLower(c.Name)}, strings.Fields(strings.ToLower(c.Name))...)
		for _, w := range words {
			if w != "" && strings.HasPrefix(w, q) {
				out = append(out, c)
				break
			}
		}
		if len(out) == limit {
			break
		}
	}
	return out, ctx.Err()
}

// gatedBook is a Book whose every answer waits until the test lets it
// go (or the lookup's context ends): an index slower than the typing.
type gatedBook struct {
	tableBook
	gate chan struct{}
}

func (b gatedBook) Lookup(ctx context.Context, query string, limit int) ([]contact.Contact, error) {
	select {
	case <-b.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return b.tableBook.Lookup(ctx, query, limit)
}

// family: Mom as the person wrote her, and a stranger who calls himself
// "Mom" in his From (the index keeps each name with its own address).
var family = tableBook{
	{Name: "Mom", Address: "mom@family.test", Sent: 40},
	{Name: "Mom", Address: "evil@attacker.test", Received: 1},
	{Name: "Bob Stone", Address: "bob@example.com", Sent: 3},
	{Name: "Doe, Jane", Address: "jane@example.org", Sent: 2},
	{Address: "ci@example.org", Received: 90, List: true},
}

// newPrompt is a To: prompt over book (nil: no contacts) in an Env of
// its own.
func newPrompt(t *testing.T, book contact.Book, value string) (Prompt, *screen.Env) {
	t.Helper()
	e := screentest.Env(t)
	if book != nil {
		e.Opts.Contacts = book
	}
	return New(e, Ask{Field: "To", Value: value}).Resized(80), e
}

// typed is each key of keys in turn ("tab", "shift+tab", "enter",
// "esc", "backspace" by name, anything else a rune), every command run
// to its end and its answer handed back, as the program would.
func typed(t *testing.T, p Prompt, keys ...string) Prompt {
	t.Helper()
	for _, k := range keys {
		var cmd tea.Cmd
		p, cmd = p.Update(keyMsg(k))
		for _, msg := range run(cmd) {
			p, _ = p.Update(msg)
		}
	}
	return p
}

func keyMsg(k string) tea.KeyMsg {
	named := map[string]tea.KeyType{"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "enter": tea.KeyEnter,
		"esc": tea.KeyEsc, "backspace": tea.KeyBackspace}
	if kt, ok := named[k]; ok {
		return tea.KeyMsg{Type: kt}
	}
	return screentest.Typed(k)
}

// run is what cmd answers, a batch's every answer in turn.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

func letters(s string) []string { return strings.Split(s, "") }
