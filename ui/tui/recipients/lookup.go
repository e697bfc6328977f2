package recipients

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/contact"
	"unibox/model/review"
	"unibox/model/textsafe"
)

// maxMatches is how many contacts a lookup asks for: more than a list
// under the status line can show is more than anyone reads.
const maxMatches = 8

// CompletedMsg is a lookup's answer for prompt's line as it was (value):
// the contacts that match query, best first, as Offered made them.
type CompletedMsg struct {
	prompt  uint64
	value   string
	query   string
	tab     bool
	matches []model.Address
	err     error
}

// lookupCmd asks book for query off the screen's loop, within bound: a
// Book that does not answer in time leaves its goroutine to end with
// its context, and the prompt hears that it did not answer.
func lookupCmd(ctx context.Context, book contact.Book, bound time.Duration, id uint64, value, query string, tab bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, bound)
		defer cancel()
		type answer struct {
			found []contact.Contact
			err   error
		}
		got := make(chan answer, 1)
		go func() {
			found, err := book.Lookup(ctx, query, maxMatches)
			got <- answer{found, err}
		}()
		msg := CompletedMsg{prompt: id, value: value, query: query, tab: tab}
		select {
		case a := <-got:
			msg.matches, msg.err = offered(a.found), a.err
		case <-ctx.Done():
			msg.err = ctx.Err()
		}
		if errors.Is(msg.err, context.DeadlineExceeded) {
			msg.err = fmt.Errorf("no answer within %s", bound)
		} else if msg.err != nil {
			msg.err = errors.New(textsafe.Line(msg.err.Error())) // an external command's words
		}
		return msg
	}
}

// offered is what a lookup may offer of found: each contact as Offered
// makes it (a name cleaned; an address that cannot go on the line as it
// is, left out), each address once, at most maxMatches.
func offered(found []contact.Contact) []model.Address {
	var out []model.Address
	seen := map[string]bool{}
	for _, c := range found {
		a, ok := mailcompose.Offered(model.Address{Name: c.Name, Address: c.Address})
		if !ok || seen[review.AddressKey(a.Address)] {
			continue
		}
		seen[review.AddressKey(a.Address)] = true
		out = append(out, a)
		if len(out) == maxMatches {
			break
		}
	}
	return out
}
