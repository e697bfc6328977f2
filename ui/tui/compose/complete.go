package compose

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/drafting"
	mailcompose "unibox/model/compose"
	"unibox/ui/tui/screen"
)

// Tab completion of the attach prompt's path, as a shell completes a
// file name: the folder the path names so far is listed (in a command:
// a folder on a slow or hung mount must not stop the screen), one match
// is completed whole (a folder with its "/"), several are completed to
// what they share and listed under the prompt.

// maxChoices bounds the names listed under the prompt.
const maxChoices = 60

// CompletedMsg is a completion of the prompt's value: Value is what was
// completed (a completion for a value since changed is dropped), To what
// it becomes, Choices the names that match when there are several.
type CompletedMsg struct {
	Value, To string
	Choices   []string
	More      int // matches beyond the listed ones
}

func (m CompletedMsg) AccountIndex() int { return screen.NoAccount }

// completeCmd completes value off the screen's loop.
func completeCmd(value string) tea.Cmd {
	return func() tea.Msg {
		to, choices, more := complete(value)
		return CompletedMsg{Value: value, To: to, Choices: choices, More: more}
	}
}

// complete is value with its last name completed against the files of
// its folder (~ expanded for the listing, kept as written in the value).
// Hidden files match only a name that starts with a dot. A name the
// review would refuse to show (a control, bidi or invisible character,
// not UTF-8) is never offered: its escapes would reach the terminal, and
// its line would be refused.
func complete(value string) (to string, choices []string, more int) {
	if value == "~" {
		value = "~/"
	}
	dir, base := "", value
	if i := strings.LastIndexByte(value, '/'); i >= 0 {
		dir, base = value[:i+1], value[i+1:]
	}
	list := dir
	if list == "" {
		list = "."
	}
	list, err := drafting.ExpandPath(list)
	if err != nil {
		return value, nil, 0
	}
	ents, err := os.ReadDir(list)
	if err != nil {
		return value, nil, 0
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, base) || (strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".")) ||
			mailcompose.CheckShowable("file name", n, false) != nil {
			continue
		}
		if info, err := os.Stat(filepath.Join(list, n)); err == nil && info.IsDir() {
			n += "/" // a link to a folder too
		}
		names = append(names, n)
	}
	switch len(names) {
	case 0:
		return value, nil, 0
	case 1:
		return dir + names[0], nil, 0
	}
	slices.Sort(names)
	shared := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, shared) {
			_, size := utf8.DecodeLastRuneInString(shared)
			shared = shared[:len(shared)-size]
		}
	}
	if len(names) > maxChoices {
		more, names = len(names)-maxChoices, names[:maxChoices]
	}
	return dir + shared, names, more
}
