package tui

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"go.uber.org/goleak"

	"unibox/accounts/config"
	"unibox/ui/tui/screen"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRebind(t *testing.T) {
	k := screen.DefaultKeyMap()
	if err := k.Rebind(map[string][]string{"archive": {"A", "y"}, "select": {"space"}}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("A")}, k.Archive) || key.Matches(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("e")}, k.Archive) {
		t.Fatal("archive not rebound to A")
	}
	if k.Archive.Help().Key != "A/y" || k.Select.Help().Key != "space" {
		t.Fatalf("help not updated: %q %q", k.Archive.Help().Key, k.Select.Help().Key)
	}
	err := k.Rebind(map[string][]string{"archiv": {"x"}})
	if err == nil || !strings.Contains(err.Error(), `unknown action "archiv"`) {
		t.Fatalf("unknown action: %v", err)
	}
}

// config.example.toml's [keys] table names every action a user can
// rebind, with its default key.
func TestExampleConfigNamesEveryAction(t *testing.T) {
	all, err := os.ReadFile("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	start, end := bytes.Index(all, []byte("# Key bindings:")), bytes.Index(all, []byte("\n[keys]"))
	if start < 0 || end < start {
		t.Fatal("config.example.toml has no [keys] table after its list of actions")
	}
	b := all[start:end]
	km := screen.DefaultKeyMap()
	acts := km.Actions()
	for _, a := range screen.Actions() {
		re := regexp.MustCompile(`(?m)^#\s+` + a + `\s+(\S+)\s`)
		m := re.FindSubmatch(b)
		if m == nil {
			t.Errorf("config.example.toml does not list the action %s", a)
			continue
		}
		first := strings.TrimSuffix(string(m[1]), ",")
		if keys := acts[a].Keys(); !slices.Contains(keys, first) && !(first == "space" && slices.Contains(keys, " ")) {
			t.Errorf("config.example.toml gives %s the key %q; its keys are %q", a, first, keys)
		}
	}
}

// A [keys] rebinding that gives A or S a second meaning in the message
// view is refused at load, naming the line that made the clash.
func TestAttachmentKeyClash(t *testing.T) {
	const head = "[[account]]\nname = \"w\"\nhost = \"h\"\nusername = \"u\"\npassword_env = \"P\"\n[keys]\n"
	for _, tc := range []struct{ keys, want string }{
		{`archive = ["e", "A"]`, `t.toml:7: keys.archive: "A" is both archive and attachments in the message view`},
		{`reply = ["S"]`, `t.toml:7: keys.reply: "S" is both reply and save_attachment in the message view`},
		{"undo = [\"z\"]\nattachments = [\"e\"]", `t.toml:8: keys.attachments: "e" is both archive and attachments in the message view`},
		{`save_attachment = ["A"]`, `t.toml:7: keys.save_attachment: "A" is both attachments and save_attachment in the message view`},
		{`archive = ["e", "E"]`, ""},
		{`search = ["S"]`, ""}, // the list's key, not the message view's
	} {
		cfg, err := config.Parse("t.toml", []byte(head+tc.keys+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		err = checkKeys(cfg)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("[keys] %s: %v, want %q", tc.keys, err, tc.want)
		}
	}
}

// Every screen's keys are checked where they apply: a key bound to two
// actions of one screen is refused, naming the screen; the same key on
// two screens that never share it is fine.
func TestKeyClashesPerScreen(t *testing.T) {
	const head = "[[account]]\nname = \"w\"\nhost = \"h\"\nusername = \"u\"\npassword_env = \"P\"\n[keys]\n"
	for _, tc := range []struct{ keys, want string }{
		{`threads = ["a"]`, `t.toml:7: keys.threads: "a" is both all_accounts and threads in the list`},
		{`reply = ["p"]`, `t.toml:7: keys.reply: "p" is both reply and prev_in_thread in the message view`},
		{`send = ["e"]`, `t.toml:7: keys.send: "e" is both send and edit in the review screen`},
		{`discard = ["D"]`, `t.toml:7: keys.discard: "D" is both drafts and discard in the drafts view`},
		{`own_from = ["u"]`, ""}, // the review's f; u is the list's
		{`send = ["r"]`, ""},     // the review's and the drafts view's y; r refreshes in the list
		{`edit_recipients = ["e"]`, `t.toml:7: keys.edit_recipients: "e" is both edit and edit_recipients in the review screen`},
		{`complete_prev = ["tab"]`, `t.toml:7: keys.complete_prev: "tab" is both complete and complete_prev in the To: prompt`},
		{`complete_prev = ["enter"]`, `t.toml:7: keys.complete_prev: "enter" is both open and complete_prev in the To: prompt`},
		{`edit_recipients = ["T"]`, ""}, // t stays threads in the list either way
		{`threads = ["T"]`, ""},         // the list's t; the review's is edit_recipients
		{`screen_out = ["j"]`, `t.toml:7: keys.screen_out: "j" is both down and screen_out in the screener`},
		{`screener = ["a"]`, `t.toml:7: keys.screener: "a" is both all_accounts and screener in the list`},
		{`screen_in = ["e"]`, ""}, // the screener's y; e archives in the list
		{`reject_proposal = ["y"]`, `t.toml:7: keys.reject_proposal: "y" is both accept_proposal and reject_proposal in the rule proposals`},
		{`proposals = ["W"]`, `t.toml:7: keys.proposals: "W" is both screener and proposals in the list`},
	} {
		cfg, err := config.Parse("t.toml", []byte(head+tc.keys+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		err = checkKeys(cfg)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("[keys] %s: %v, want %q", tc.keys, err, tc.want)
		}
	}
	if c := screen.DefaultKeyMap(); len(clashes(c)) > 0 {
		t.Errorf("the default keys clash: %v", clashes(c))
	}
}
