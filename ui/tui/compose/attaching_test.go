package compose

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen/screentest"
)

// Tab completes a path as a shell does: one match whole (a folder with
// its /), several to what they share and listed, hidden files only for a
// dot, ~ for the home folder kept as written; a name with an escape
// sequence is never offered.
func TestComplete(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(home, "docs")
	for _, d := range []string{"docs", "docs/reports"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"report.pdf", "readme.txt", ".hidden", "evil\x1b[2J.pdf", "e\u202egnp.exe"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		value, to string
		choices   []string
	}{
		{dir + "/rep", dir + "/report", []string{"report.pdf", "reports/"}},
		{dir + "/rea", dir + "/readme.txt", nil},
		{dir + "/reports", dir + "/reports/", nil},
		{"~/docs/rea", "~/docs/readme.txt", nil},
		{"~/do", "~/docs/", nil},
		{"~", "~/docs/", nil},
		{dir + "/.h", dir + "/.hidden", nil},
		{dir + "/e", dir + "/e", nil},
		{dir + "/nothing", dir + "/nothing", nil},
		{filepath.Join(home, "no/such/dir/x"), filepath.Join(home, "no/such/dir/x"), nil},
	} {
		to, choices, _ := complete(tc.value)
		if to != tc.to || !reflect.DeepEqual(choices, tc.choices) {
			t.Errorf("complete(%q) = %q %q, want %q %q", tc.value, to, choices, tc.to, tc.choices)
		}
	}
}

// replyOnReview is a reply to lunch on the review screen, its draft on disk.
func replyOnReview(t *testing.T) (Composer, *writer) {
	t.Helper()
	w := newWriter("Work")
	_, e := openRoom(t, w)
	orig := lunch("Work")
	ready := StartComposeCmd(e.Ctx, e.Opts.Mailroom, w, mailcompose.KindReply, &orig, nil, time.Second)()
	c := New(e)
	c.Width, c.Height = 120, 30
	c, _ = c.Update(ready)
	c = settle(t, c, func() tea.Msg { return EditedMsg{draftID: c.Draft.ID} })
	if !c.Review {
		t.Fatal("the review is not up")
	}
	return c, w
}

// typed types s into the composer, one key a rune.
func typed(c Composer, s string) Composer {
	for _, r := range s {
		c, _ = c.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return c
}

// a on the review asks for a path, in which keys are text (a ? or a y
// is typed, not help or send); tab completes it; enter copies the file
// in a command, not in Update: until the command has run, the file is
// not copied and the review says it is attaching, while send waits;
// then the draft's text names it and the review lists it.
func TestAttachKeyCopiesInACommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "y?menu.pdf")
	if err := os.WriteFile(file, []byte("%PDF-1.4 menu"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := replyOnReview(t)
	box := c.e.Opts.Mailroom.Box
	c, _ = c.Update(screentest.Typed("a"))
	if !c.Prompting() || !strings.Contains(c.Header(), "attach a file") {
		t.Fatalf("a did not ask for a path: %q", c.Header())
	}
	c = typed(c, dir+"/y?m")
	c, cmd := c.Update(tea.KeyMsg{Type: tea.KeyTab})
	if cmd == nil {
		t.Fatal("tab ran no completion")
	}
	c, _ = c.Update(cmd())
	if got := c.prompt.input.Value(); got != file {
		t.Fatalf("completed to %q, want %q", got, file)
	}
	c, cmd = c.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if c.Prompting() || cmd == nil {
		t.Fatal("enter did not start the attaching")
	}
	if _, ok := box.KeptFile(c.Draft.ID, file); ok {
		t.Fatal("the file was copied in Update: the screen waited on the disk")
	}
	if v := ansi.Strip(c.View(c.Width, c.Height)); !strings.Contains(v, "attaching "+file+"…") {
		t.Fatalf("the review does not say it is attaching:\n%s", v)
	}
	if _, send := c.Update(screentest.Typed("y")); send != nil {
		t.Fatal("y sent while a file was being attached")
	}
	c = settle(t, c, cmd)
	if _, ok := box.KeptFile(c.Draft.ID, file); !ok {
		t.Fatal("no copy after the command")
	}
	_, text, _ := box.Draft(c.Draft.ID)
	if !strings.Contains(string(text), "\nAttach: "+file+"\n") {
		t.Fatalf("the draft's text does not name the file:\n%s", text)
	}
	if v := ansi.Strip(c.View(c.Width, c.Height)); !strings.Contains(v, "y?menu.pdf (application/pdf, 13 B)") || c.problem != "" {
		t.Fatalf("the review does not list it (problem %q):\n%s", c.problem, v)
	}
}

// A path the attach key cannot take is refused at once, saying why, and
// the draft is as it was: a FIFO (never opened for reading), a folder,
// a missing file, the same file twice.
func TestAttachKeyRefusalKeepsTheDraft(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(good, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := replyOnReview(t)
	box := c.e.Opts.Mailroom.Box
	attach := func(c Composer, path string) (Composer, AttachedMsg) {
		c, _ = c.Update(screentest.Typed("a"))
		c = typed(c, path)
		c, cmd := c.Update(tea.KeyMsg{Type: tea.KeyEnter})
		msg, _ := cmd().(AttachedMsg)
		c, _ = c.Update(msg)
		return c, msg
	}
	c, msg := attach(c, good)
	if msg.Err != nil {
		t.Fatal(msg.Err)
	}
	_, before, _ := box.Draft(c.Draft.ID)
	for path, says := range map[string]string{
		fifo:                       "it is a FIFO",
		dir:                        "it is a folder",
		filepath.Join(dir, "gone"): "no such file or directory",
		good:                       "this file is attached twice",
	} {
		var msg AttachedMsg
		c, msg = attach(c, path)
		if msg.Err == nil || !strings.Contains(msg.Err.Error(), says) {
			t.Errorf("%s: err = %v, want it to say %q", path, msg.Err, says)
		}
		if _, after, _ := box.Draft(c.Draft.ID); string(after) != string(before) {
			t.Errorf("%s: the draft's text changed:\n%s", path, after)
		}
		if !c.Review || len(c.Shown.Attachments) != 1 {
			t.Errorf("%s: the review lost its file or closed: %+v", path, c.Shown.Attachments)
		}
	}
}
