package compose

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen/screentest"
)

// lunch is the message answered: Bob's "lunch?".
func lunch(account string) model.Body {
	m := model.Message{ID: model.MessageID{Account: account, Folder: "INBOX", UIDValidity: 7, UID: 3}, MessageID: "lunch-1@example.com",
		From: model.Address{Name: "Bob", Address: "bob@example.com"}, To: []model.Address{{Address: "sam@example.com"}},
		Subject: "lunch?", Date: now.Add(-time.Hour)}
	return model.Body{Message: m, Text: "Noon at the usual place?\n"}
}

// A text holding what a terminal would not show as it is sent is refused
// on the review screen, naming the line: a cleaned view of it would hide
// what goes. A right-to-left override the editor pasted reorders what is
// read; a sentence followed by a secret in Unicode tag characters (issue
// 35's covert channel) looks like the sentence alone. y and p do nothing;
// x asks before it discards. (Moved from teatest: the reply is started
// and read back by the composer's own commands; the test writes the
// editor's line into the draft's file, where teatest ran a sed script
// as the editor through the root.)
func TestReviewRefusesInvisibleCharacters(t *testing.T) {
	var secret strings.Builder
	secret.WriteString("Thanks, see you Monday.")
	for _, r := range "pw=hunter2" {
		secret.WriteRune(0xE0000 + r)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"bidi override", "see invoice\u202efdp.exe", "cannot send: body, line 1, holds a bidi control (U+202E)"},
		{"tag-encoded secret", secret.String(), "cannot send: body, line 1, holds a tag character (U+E0070)"},
		{"hangul filler", "ok\u3164", "cannot send: body, line 1, holds a blank character that draws nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWriter("Work")
			box, e := openRoom(t, w)
			orig := lunch("Work")
			ready := StartComposeCmd(e.Ctx, e.Opts.Mailroom, w, mailcompose.KindReply, &orig, nil, time.Second)()
			c := New(e)
			c.Width, c.Height = 120, 20
			c, _ = c.Update(ready) // the editor's command, run by the program: done by hand below
			// The editor writes its line above the quote, after the
			// header block's blank line, as a person would.
			text, err := os.ReadFile(c.Draft.Path)
			if err != nil {
				t.Fatal(err)
			}
			edited := strings.Replace(string(text), "\n\n", "\n\n"+tc.text+"\n", 1)
			if err := os.WriteFile(c.Draft.Path, []byte(edited), 0o600); err != nil {
				t.Fatal(err)
			}
			c = settle(t, c, func() tea.Msg { return EditedMsg{draftID: c.Draft.ID} })
			if v := ansi.Strip(c.View(c.Width, c.Height)); !c.Review || !strings.Contains(v, tc.want) {
				t.Fatalf("the review does not refuse it (up %v):\n%s", c.Review, v)
			}
			for _, k := range []string{"y", "p"} {
				var cmd tea.Cmd
				if c, cmd = c.Update(screentest.Typed(k)); cmd != nil {
					t.Fatalf("%s on a refused text ran a command", k)
				}
			}
			c, _ = c.Update(screentest.Typed("x"))
			if v := ansi.Strip(c.View(c.Width, c.Height)); !strings.Contains(v, "x again discards this draft") {
				t.Fatalf("x did not ask first:\n%s", v)
			}
			if es, _ := box.Entries(); len(es) != 0 || len(w.drafts) != 0 {
				t.Fatalf("an unshowable text went out: outbox %+v, postponed %d", es, len(w.drafts))
			}
		})
	}
}
