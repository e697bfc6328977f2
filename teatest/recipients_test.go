package teatest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"unibox/accounts/send/outbox"
	"unibox/model/contact"
	"unibox/ui/tui"
)

// contactsTable is a test double of contact.Book for the To: prompt's
// flows (the contacts index is another package's): a table in rank
// order, a contact matching when its address, its name or a word of its
// name starts with the query, without case.
type contactsTable []contact.Contact

func (b contactsTable) Lookup(ctx context.Context, query string, limit int) ([]contact.Contact, error) {
	q := strings.ToLower(query)
	var out []contact.Contact
	for _, c := range b {
		for _, w := range append([]string{strings.ToLower(c.Address), strings.ToLower(c.Name)}, strings.Fields(strings.ToLower(c.Name))...) {
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

// people: Mom as Sam wrote her, a stranger whose From calls him "Mom",
// Bob, Jane and Nell.
var people = contactsTable{
	{Name: "Mom", Address: "mom@family.test", Sent: 40},
	{Name: "Mom", Address: "evil@attacker.test", Received: 1},
	{Name: "Bob", Address: "bob@example.com", Sent: 3},
	{Name: "Doe, Jane", Address: "jane@example.org", Sent: 2},
	{Name: "Nell", Address: "nell@elsewhere.test", Received: 4},
}

// writingWorld is lunchWriter's account and an outbox in a folder the
// test knows, with room's editor; contacts complete the prompts.
func writingWorld(t *testing.T, editor string, w, h int) (*writer, *outbox.Box, string, func() *teatest.TestModel) {
	t.Helper()
	wr, _ := lunchWriter(t)
	dir := t.TempDir()
	box, err := outbox.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	start := func() *teatest.TestModel {
		room := &tui.Mailroom{Box: box, Editor: editor, SendDelay: 10 * time.Second}
		tm, _ := run(t, []tui.Account{wr}, w, h, func(o *tui.Options) { o.Mailroom = room; o.Contacts = people })
		return tm
	}
	return wr, box, dir, start
}

// files is every file under dir, by its path there.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// c asks To: on the status line before anything is written; tab with
// several matches lists them under the line, each address whole beside
// its name, so the stranger calling himself "Mom" shows his own address.
func TestComposeToPromptListsContacts(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			_, _, _, start := writingWorld(t, "true", size[0], size[1])
			tm := start()
			waitFor(t, tm, "lunch?")
			tm.Send(key("c"))
			waitFor(t, tm, "To: ")
			tm.Type("mo")
			tm.Send(key("tab"))
			waitFor(t, tm, "mom@family.test", "evil@attacker.test")
			screen := final(t, tm)
			for _, want := range []string{`> mom@family.test  "Mom"`, `  evil@attacker.test  "Mom"`, "To: mo"} {
				if !strings.Contains(screen, want) {
					t.Errorf("the prompt lacks %q:\n%s", want, screen)
				}
			}
			if lines := strings.Split(screen, "\n"); len(lines) != size[1] || !strings.Contains(lines[0], "Work") {
				t.Errorf("the frame is %d lines, want %d, the bar first:\n%s", len(lines), size[1], screen)
			}
			check(t, screen)
		})
	}
}

// The To read at c's prompt is the draft's To when the editor opens:
// tab completes Bob whole, enter reads the line; the review shows him.
func TestComposeToFillsTheDraft(t *testing.T) {
	_, box, _, start := writingWorld(t, "true", 80, 24)
	tm := start()
	waitFor(t, tm, "lunch?")
	tm.Send(key("c"))
	waitFor(t, tm, "esc cancel")
	tm.Type("bo")
	tm.Send(key("tab"))
	waitFor(t, tm, "To: Bob <bob@example.com>,")
	tm.Send(key("enter"))
	waitFor(t, tm, "review · y send", "bob@example.com")
	ds, err := box.Drafts()
	if err != nil || len(ds) != 1 {
		t.Fatalf("drafts %+v, %v: want the one", ds, err)
	}
	_, text, err := box.Draft(ds[0].ID)
	if err != nil || !strings.Contains(string(text), "\nTo: Bob <bob@example.com>\n") {
		t.Fatalf("the draft's text (%v):\n%s", err, text)
	}
}

// Esc at the To: prompt of c or F cancels the message: no draft, no
// outbox entry, no file of any kind in the drafts and outbox folders.
func TestEscOnToWritesNothing(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		inMessage bool
	}{{"compose", "c", false}, {"forward", "F", true}} {
		t.Run(tc.name, func(t *testing.T) {
			_, box, dir, start := writingWorld(t, "true", 80, 24)
			before := files(t, dir)
			tm := start()
			waitFor(t, tm, "lunch?")
			if tc.inMessage {
				tm.Send(key("enter"))
				waitFor(t, tm, "Noon at the usual place?")
			}
			tm.Send(key(tc.key))
			waitFor(t, tm, "esc cancel")
			tm.Type("mo")
			tm.Send(key("tab"))
			waitFor(t, tm, "evil@attacker.test")
			tm.Send(key("esc"))
			waitFor(t, tm, "cancelled: nothing was written")
			final(t, tm)
			if after := files(t, dir); !slices.Equal(after, before) {
				t.Fatalf("files written: %q, were %q", after, before)
			}
			ds, _ := box.Drafts()
			es, _ := box.Entries()
			if len(ds)+len(es) != 0 {
				t.Fatalf("drafts %+v, outbox %+v", ds, es)
			}
		})
	}
}

// t on the review asks To: then Cc:, each prefilled; what they read is
// the draft's To and Cc lines (the rest of its text as it was), and the
// review is drawn again with its checks run again: Nell and Jane, never
// written to, are marked new. Esc on either prompt changes nothing.
func TestReviewEditsRecipients(t *testing.T) {
	t.Run("to and cc", func(t *testing.T) {
		_, box, _, start := writingWorld(t, editorScript(t, "Yes, noon."), 100, 30)
		tm := start()
		replyToLunch(t, tm)
		waitFor(t, tm, "review · y send", "every recipient has been written to before")
		id, before := onlyDraft(t, box)
		tm.Send(key("t"))
		waitFor(t, tm, "To: Bob <bob@example.com>", "esc cancel")
		tm.Type(", ne")
		tm.Send(key("tab"))
		waitFor(t, tm, "Nell <nell@elsewhere.test>,")
		tm.Send(key("enter"))
		waitFor(t, tm, "Cc: ")
		tm.Type("ja")
		tm.Send(key("tab"))
		waitFor(t, tm, `"Doe, Jane" <jane@example.org>,`)
		tm.Send(key("enter"))
		waitFor(t, tm, "new recipient: nell@elsewhere.test", "new recipient: jane@example.org")
		_, after, err := box.Draft(id)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(before, "\nTo: Bob <bob@example.com>\nCc: \n",
			"\nTo: Bob <bob@example.com>, Nell <nell@elsewhere.test>\nCc: \"Doe, Jane\" <jane@example.org>\n", 1)
		if string(after) != want || want == before {
			t.Fatalf("the draft's text:\n%s\nwant:\n%s", after, want)
		}
		check(t, final(t, tm))
	})
	for _, at := range []string{"To", "Cc"} {
		t.Run("esc at "+at, func(t *testing.T) {
			_, box, _, start := writingWorld(t, "true", 80, 24)
			tm := start()
			replyToLunch(t, tm)
			waitFor(t, tm, "review · y send")
			id, before := onlyDraft(t, box)
			tm.Send(key("t"))
			waitFor(t, tm, "esc cancel")
			tm.Type(", nell@elsewhere.test")
			if at == "Cc" {
				tm.Send(key("enter"))
				waitFor(t, tm, "Cc: ")
				tm.Type("jane@example.org")
			}
			tm.Send(key("esc"))
			waitFor(t, tm, "the recipients are as they were")
			final(t, tm)
			if _, after, _ := box.Draft(id); string(after) != before {
				t.Fatalf("the draft changed:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

// onlyDraft is the one draft in box: its id and text.
func onlyDraft(t *testing.T, box *outbox.Box) (string, string) {
	t.Helper()
	ds, err := box.Drafts()
	if err != nil || len(ds) != 1 {
		t.Fatalf("drafts %+v, %v: want one", ds, err)
	}
	_, text, err := box.Draft(ds[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return ds[0].ID, string(text)
}

// cannotSend is lunchWriter's account with no way to send.
type cannotSend struct{ *writer }

func (cannotSend) CanSend() error {
	return errors.New("sending is not configured for this account (smtp_host)")
}

// An account that cannot send says so at c, before a To: is typed for a
// message that could not go.
func TestComposeRefusedBeforeTo(t *testing.T) {
	w, box := lunchWriter(t)
	room := &tui.Mailroom{Box: box, Editor: "true"}
	tm, _ := run(t, []tui.Account{cannotSend{w}}, 80, 24, func(o *tui.Options) { o.Mailroom = room; o.Contacts = people })
	waitFor(t, tm, "lunch?")
	tm.Send(key("c"))
	waitFor(t, tm, "Work: sending is not configured for this account (smtp_host)")
	if screen := final(t, tm); strings.Contains(screen, "To: ") || strings.Contains(screen, "esc cancel") {
		t.Fatalf("a To: was asked:\n%s", screen)
	}
}

// The full help open when c is pressed closes: its lines go to the list
// under the prompt, the prompt's keys on the one help line.
func TestPromptClosesTheFullHelp(t *testing.T) {
	_, _, _, start := writingWorld(t, "true", 40, 10)
	tm := start()
	waitFor(t, tm, "lunch?")
	tm.Send(key("?"))
	waitFor(t, tm, "more (1/")
	tm.Send(key("c"))
	tm.Type("mo")
	tm.Send(key("tab"))
	waitFor(t, tm, "mom@family.test", "evil@attacker.test")
	lines := strings.Split(final(t, tm), "\n")
	if len(lines) != 10 || !strings.HasPrefix(lines[9], "tab next • enter take") || !strings.HasPrefix(lines[6], "To: mo") {
		t.Fatalf("want the prompt, its two rows and the short help at the bottom:\n%s", strings.Join(lines, "\n"))
	}
}
