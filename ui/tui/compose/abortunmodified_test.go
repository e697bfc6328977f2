package compose

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen"
)

// abort_unmodified looks at the first edit only: a reply the editor
// leaves as written is discarded (its draft gone, a note said); one the
// person changed is reviewed, and a second edit (e on the review) that
// puts the text back as it was written keeps the review and the draft.
// Off, nothing is discarded.
func TestAbortUnmodifiedOnlyTheFirstEdit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		abort       bool
		firstEdits  bool // the first edit changes the text
		wantReview  bool
		wantDrafts  int
		wantNoteHas string
	}{
		{"unchanged, on", true, false, false, 0, "not changed: discarded"},
		{"unchanged, off", false, false, true, 1, ""},
		{"changed, then put back", true, true, true, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWriter("Work")
			box, e := openRoom(t, w)
			e.Opts.Mailroom.AbortUnmodified = tc.abort
			orig := lunch("Work")
			ready := StartComposeCmd(e.Ctx, e.Opts.Mailroom, w, mailcompose.KindReply, &orig, nil, time.Second)()
			c := New(e)
			c.Width, c.Height = 100, 20
			c, _ = c.Update(ready) // the editor's command, run by the program: done by hand below
			written, err := os.ReadFile(c.Draft.Path)
			if err != nil {
				t.Fatal(err)
			}
			write := func(text string) {
				if err := os.WriteFile(c.Draft.Path, []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.firstEdits {
				write(strings.Replace(string(written), "\n\n", "\n\nYes.\n", 1))
			}
			edited := func() tea.Msg { return EditedMsg{draftID: c.Draft.ID} }
			c = settle(t, c, edited)
			if tc.firstEdits {
				write(string(written)) // e on the review, and the text put back as it was written
				c = settle(t, c, edited)
			}
			if c.Review != tc.wantReview {
				t.Errorf("review up %v, want %v", c.Review, tc.wantReview)
			}
			ds, err := box.Drafts()
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != tc.wantDrafts {
				t.Errorf("%d drafts left, want %d", len(ds), tc.wantDrafts)
			}
			var said []string
			for _, m := range e.Said {
				if n, ok := m.(screen.NoteMsg); ok {
					said = append(said, n.Text)
				}
			}
			if tc.wantNoteHas != "" && !strings.Contains(strings.Join(said, "\n"), tc.wantNoteHas) {
				t.Errorf("notes %q, want one with %q", said, tc.wantNoteHas)
			}
		})
	}
}
