package recipients

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"unibox/model"
	"unibox/model/contact"
)

// Tab completes the address after the last comma: one match whole, with
// ", " for the next; several open the list, where tab and shift+tab move
// and enter takes; typing (backspace too) refines an open list; enter
// with no list reads the whole line.
func TestTabCompletes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		book    contact.Book
		start   string
		keys    []string
		value   string
		state   State
		matches int
		note    string
	}{
		{"one match, whole", family, "", []string{"b", "o", "tab"}, "Bob Stone <bob@example.com>, ", Typing, 0, ""},
		{"the piece after the last comma", family, "bob@example.com, ja", []string{"tab"},
			`bob@example.com, "Doe, Jane" <jane@example.org>, `, Typing, 0, ""},
		{"a comma in a quoted name is no separator", family, `"Doe, Jane" <jane@example.org>, b`, []string{"tab"},
			`"Doe, Jane" <jane@example.org>, Bob Stone <bob@example.com>, `, Typing, 0, ""},
		{"several: the list", family, "mo", []string{"tab"}, "mo", Listing, 2, ""},
		{"tab moves, enter takes", family, "mo", []string{"tab", "tab", "enter"}, "Mom <evil@attacker.test>, ", Typing, 0, ""},
		{"shift+tab moves back", family, "mo", []string{"tab", "tab", "shift+tab", "enter"}, "Mom <mom@family.test>, ", Typing, 0, ""},
		{"shift+tab wraps", family, "mo", []string{"tab", "shift+tab", "enter"}, "Mom <evil@attacker.test>, ", Typing, 0, ""},
		{"typing refines", family, "m", []string{"tab", "o", "m", "@", "enter"}, "Mom <mom@family.test>, ", Typing, 0, ""},
		{"backspace refines", family, "mo", []string{"tab", "m", "@", "backspace", "backspace"}, "mo", Listing, 2, ""},
		{"emptied piece closes the list", family, "mo", []string{"tab", "backspace", "backspace"}, "", Typing, 0, ""},
		{"no match", family, "zz", []string{"tab"}, "zz", Typing, 0, `no contact matches "zz"`},
		{"no contacts", nil, "mo", []string{"tab"}, "mo", Typing, 0, "no contacts to complete from"},
		{"two in a row", family, "", []string{"b", "o", "tab", "j", "a", "tab"},
			`Bob Stone <bob@example.com>, "Doe, Jane" <jane@example.org>, `, Typing, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, e := newPrompt(t, tc.book, tc.start)
			p = typed(t, p, tc.keys...)
			if p.Value() != tc.value || p.State() != tc.state || len(p.matches) != tc.matches || !strings.Contains(p.note, tc.note) {
				t.Fatalf("value %q, %v with %d listed, note %q; want %q, %v with %d, note %q",
					p.Value(), p.State(), len(p.matches), p.note, tc.value, tc.state, tc.matches, tc.note)
			}
			if len(e.Said) != 0 {
				t.Fatalf("the prompt ended: %+v", e.Said)
			}
		})
	}
}

// Enter with no list open reads the whole line: a line that does not
// parse keeps the prompt open and says why; one that does is told, ", "
// at its end aside.
func TestEnterReadsTheLine(t *testing.T) {
	p, e := newPrompt(t, family, "")
	p = typed(t, p, letters("mom")...)
	p = typed(t, p, "enter")
	if p.State() != Typing || !strings.Contains(p.note, `To: an address does not parse: "mom"`) || len(e.Said) != 0 {
		t.Fatalf("a name alone: %v, note %q, told %+v", p.State(), p.note, e.Said)
	}
	if v := ansi.Strip(p.View(80, 5)); !strings.Contains(v, `does not parse: "mom"`) {
		t.Fatalf("the error is not under the line:\n%s", v)
	}
	p = typed(t, p, "tab", "enter") // the list: Mom's own first
	p = typed(t, p, letters("al@example.org")...)
	if p.note != "" {
		t.Fatalf("typing kept the error: %q", p.note)
	}
	p = typed(t, p, "enter")
	want := AnsweredMsg{Field: "To", Addresses: []model.Address{{Name: "Mom", Address: "mom@family.test"}, {Address: "al@example.org"}}}
	if p.State() != Answered || len(e.Said) != 1 || !reflect.DeepEqual(e.Said[0], want) {
		t.Fatalf("%v, told %+v; want %+v", p.State(), e.Said, want)
	}
	if q := typed(t, p, "x"); q.Value() != p.Value() {
		t.Fatal("an answered prompt still takes keys")
	}
}

// Esc ends the prompt, list open or not, and says so; nothing is read.
func TestEscCancels(t *testing.T) {
	p, e := newPrompt(t, family, "mo")
	p = typed(t, p, "tab", "esc")
	if p.State() != Cancelled || len(e.Said) != 1 || e.Said[0] != (CancelledMsg{Field: "To"}) {
		t.Fatalf("%v, told %+v", p.State(), e.Said)
	}
}

// A lookup's answer for a line that has changed since is dropped: a
// slow index must not replace what was typed meanwhile, nor a list
// refined since with an older one; an answer for another prompt is
// dropped even for the same line.
func TestLateCompletionDropped(t *testing.T) {
	t.Run("tab, then typing", func(t *testing.T) {
		book := gatedBook{family, make(chan struct{})}
		p, _ := newPrompt(t, book, "bo")
		p, cmd := p.Update(keyMsg("tab"))
		p = typed(t, p, "x")
		close(book.gate)
		for _, msg := range run(cmd) {
			p, _ = p.Update(msg)
		}
		if p.Value() != "box" || p.State() != Typing {
			t.Fatalf("a late answer for %q changed the line to %q (%v)", "bo", p.Value(), p.State())
		}
	})
	t.Run("an older refinement after a newer one", func(t *testing.T) {
		book := gatedBook{family, make(chan struct{})}
		p, _ := newPrompt(t, book, "mo")
		p, cmd := p.Update(keyMsg("tab"))
		close(book.gate)
		for _, msg := range run(cmd) {
			p, _ = p.Update(msg)
		}
		p, older := p.Update(keyMsg("m")) // "mom": both Moms
		p, newer := p.Update(keyMsg("@")) // "mom@": Mom's own alone
		for _, msg := range append(run(newer), run(older)...) {
			p, _ = p.Update(msg)
		}
		if p.State() != Listing || len(p.matches) != 1 || p.matches[0].Address != "mom@family.test" {
			t.Fatalf("%v, listed %+v: want Mom's own alone", p.State(), p.matches)
		}
	})
	t.Run("another prompt's", func(t *testing.T) {
		p, e := newPrompt(t, family, "bo")
		_, cmd := p.Update(keyMsg("tab"))
		other := New(e, Ask{Field: "To", Value: "bo"})
		for _, msg := range run(cmd) {
			other, _ = other.Update(msg)
		}
		if other.Value() != "bo" {
			t.Fatalf("another prompt's answer completed this one: %q", other.Value())
		}
	})
}

// hungBook never answers until released, whatever its context says: an
// external command that ignores its bound.
type hungBook struct{ release, done chan struct{} }

func (b hungBook) Lookup(ctx context.Context, _ string, _ int) ([]contact.Contact, error) {
	defer close(b.done)
	<-b.release
	return nil, errors.New("late")
}

// A lookup that does not answer within its bound is said under the line,
// and the prompt keeps taking keys; a Book's error is made safe to draw.
func TestLookupBound(t *testing.T) {
	for _, tc := range []struct {
		name string
		book func() (contact.Book, func())
		note string
	}{
		{"a slow index", func() (contact.Book, func()) { return gatedBook{family, make(chan struct{})}, func() {} },
			"contacts: no answer within 50ms"},
		{"a hung command", func() (contact.Book, func()) {
			b := hungBook{make(chan struct{}), make(chan struct{})}
			return b, func() { close(b.release); <-b.done }
		}, "contacts: no answer within 50ms"},
		{"an error with an escape", func() (contact.Book, func()) { return failingBook("index: \x1b]52;c;aGk=\x07broken"), func() {} },
			"contacts: index: broken"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			book, end := tc.book()
			defer end()
			p, _ := newPrompt(t, book, "mo")
			p.bound = 50 * time.Millisecond
			start := time.Now()
			p = typed(t, p, "tab")
			if took := time.Since(start); took > 5*time.Second {
				t.Fatalf("the lookup took %v", took)
			}
			if p.note != tc.note || !p.bad || p.State() != Typing {
				t.Fatalf("note %q (bad %v, %v), want %q", p.note, p.bad, p.State(), tc.note)
			}
			if p = typed(t, p, "m"); p.Value() != "mom" || p.note != "" {
				t.Fatalf("the prompt stopped taking keys: %q, %q", p.Value(), p.note)
			}
		})
	}
}

type failingBook string

func (b failingBook) Lookup(context.Context, string, int) ([]contact.Contact, error) {
	return nil, errors.New(string(b))
}

// Every row shows the address whole beside the name: two contacts both
// named "Mom" show as two addresses, at any width.
func TestSpoofedNameShowsBothAddresses(t *testing.T) {
	for _, width := range []int{80, 40} {
		p, _ := newPrompt(t, family, "mo")
		p = typed(t, p, "tab")
		view := ansi.Strip(p.View(width, 10))
		lines := strings.Split(view, "\n")
		if len(lines) != 2 {
			t.Fatalf("at %d: want a row each:\n%s", width, view)
		}
		for i, addr := range []string{"mom@family.test", "evil@attacker.test"} {
			if !strings.Contains(lines[i], addr) || !strings.Contains(lines[i], `"Mom"`) {
				t.Errorf("at %d, row %d lacks %s beside \"Mom\": %q", width, i, addr, lines[i])
			}
		}
		if !strings.HasPrefix(lines[0], "> ") || strings.HasPrefix(lines[1], "> ") {
			t.Errorf("at %d the first row is not the one marked:\n%s", width, view)
		}
	}
}

// A contact's name is cleaned as a name from mail is, its address never:
// one whose address is not what it shows is not offered; each address
// once.
func TestOfferedContacts(t *testing.T) {
	got := offered([]contact.Contact{
		{Name: "\u202eMom\x1b[31m", Address: "mom@family.test"},
		{Name: "Mom again", Address: "MOM@family.test"},
		{Name: "Zero", Address: "ze\u200bro@example.org"},
		{Address: "plain@example.org"},
	})
	want := []model.Address{{Name: "Mom", Address: "mom@family.test"}, {Address: "plain@example.org"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("offered %+v, want %+v", got, want)
	}
}

// A bidi control pasted into the line is dropped, and the prompt says
// so: it would reorder the line as drawn.
func TestBidiDropped(t *testing.T) {
	p, _ := newPrompt(t, nil, "")
	p = typed(t, p, "a", "\u202e", "b")
	if p.Value() != "ab" {
		t.Fatalf("value %q", p.Value())
	}
	p = typed(t, p, "\u2067")
	if p.Value() != "ab" || !strings.Contains(p.note, "bidi control was dropped") {
		t.Fatalf("value %q, note %q", p.Value(), p.note)
	}
}

// The address being typed is the one after the last comma outside a
// quoted name.
func TestLastPiece(t *testing.T) {
	for _, tc := range []struct{ line, head, piece string }{
		{"", "", ""},
		{"mo", "", "mo"},
		{"a@x.org, mo", "a@x.org, ", "mo"},
		{"a@x.org,mo", "a@x.org, ", "mo"},
		{"a@x.org, ", "a@x.org, ", ""},
		{`"Doe, Jane" <j@x.org>, b`, `"Doe, Jane" <j@x.org>, `, "b"},
		{`"Doe, Jane`, "", `"Doe, Jane`},
		{`"a\", b" <x@y.org>, c`, `"a\", b" <x@y.org>, `, "c"},
	} {
		if head, piece := lastPiece(tc.line); head != tc.head || piece != tc.piece {
			t.Errorf("lastPiece(%q) = %q, %q; want %q, %q", tc.line, head, piece, tc.head, tc.piece)
		}
	}
}
