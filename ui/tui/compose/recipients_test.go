package compose

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/review"
	"unibox/ui/tui/screen/screentest"
)

// t on the review asks the root for To and Cc, telling what the draft
// has; what the prompts read is written in a command (the screen never
// waits on the disk, and its keys wait for it), the rest of the text as
// it was; the draft is read back and checked again, so the marks are the
// new recipients'. An answer for another draft changes nothing.
func TestEditRecipientsKey(t *testing.T) {
	c, _ := replyOnReview(t)
	box := c.e.Opts.Mailroom.Box
	bob := model.Address{Name: "Bob", Address: "bob@example.com"}
	nell := model.Address{Name: "Nell", Address: "nell@elsewhere.test"}
	jane := model.Address{Name: "Doe, Jane", Address: "jane@example.org"}
	c.e.Said = nil
	c, cmd := c.Update(screentest.Typed("t"))
	asked, ok := screentest.Only[AskRecipientsMsg](withoutReviewing(c.e.Said))
	if cmd != nil || !ok || asked.DraftID != c.Draft.ID || !reflect.DeepEqual(asked.To, []model.Address{bob}) || len(asked.Cc) != 0 {
		t.Fatalf("t told %+v (command %v)", c.e.Said, cmd != nil)
	}
	_, before, _ := box.Draft(c.Draft.ID)

	if _, cmd := c.Update(RecipientsMsg{DraftID: "another", To: []model.Address{nell}}); cmd != nil {
		t.Fatal("an answer for another draft ran a command")
	}
	c, cmd = c.Update(RecipientsMsg{DraftID: c.Draft.ID, To: []model.Address{bob, nell}, Cc: []model.Address{jane}})
	if cmd == nil {
		t.Fatal("the answer ran no command")
	}
	if _, now, _ := box.Draft(c.Draft.ID); string(now) != string(before) {
		t.Fatal("the draft was written in Update")
	}
	if _, send := c.Update(screentest.Typed("y")); send != nil {
		t.Fatal("y sent while the recipients were being written")
	}
	c = settle(t, c, cmd)
	_, after, _ := box.Draft(c.Draft.ID)
	want := strings.Replace(string(before), "\nTo: Bob <bob@example.com>\nCc: \n",
		"\nTo: Bob <bob@example.com>, Nell <nell@elsewhere.test>\nCc: \"Doe, Jane\" <jane@example.org>\n", 1)
	if string(after) != want || want == string(before) {
		t.Fatalf("the draft:\n%s\nwant:\n%s", after, want)
	}
	if !reflect.DeepEqual(c.Shown.To, []model.Address{bob, nell}) || !reflect.DeepEqual(c.Shown.Cc, []model.Address{jane}) || c.busy {
		t.Fatalf("shown To %+v, Cc %+v (busy %v)", c.Shown.To, c.Shown.Cc, c.busy)
	}
	var marked []string
	for _, mk := range c.Marks {
		if mk.Kind == review.KindNewRecipient {
			marked = append(marked, mk.Address)
		}
	}
	if slices.Sort(marked); !slices.Equal(marked, []string{"jane@example.org", "nell@elsewhere.test"}) {
		t.Fatalf("new recipients marked %q (marks %+v)", marked, c.Marks)
	}
}

// While a file is being copied in, t waits as y, e, p and x do: its
// rewrite of the text would race the Attach line's.
func TestEditRecipientsWaitsForAnAttach(t *testing.T) {
	c, _ := replyOnReview(t)
	c.attaching = "/tmp/menu.pdf"
	c.e.Said = nil
	c, _ = c.Update(screentest.Typed("t"))
	for _, msg := range c.e.Said {
		if _, asked := msg.(AskRecipientsMsg); asked {
			t.Fatal("t asked while a file was being attached")
		}
	}
}

// withoutReviewing is said without the ReviewingMsg the composer tells
// after every message while its review is up.
func withoutReviewing(said []tea.Msg) []tea.Msg {
	var out []tea.Msg
	for _, m := range said {
		if _, ok := m.(ReviewingMsg); !ok {
			out = append(out, m)
		}
	}
	return out
}
