package tui

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"unibox/accounts"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/ui/tui/compose"
	"unibox/ui/tui/message"
	"unibox/ui/tui/notify"
	"unibox/ui/tui/picker"
	"unibox/ui/tui/screen"
)

// rebound is a model whose every action is bound under [keys] to a key of
// its own that no default uses ("alt+a", "alt+b", …, "alt+A", … in the
// order of Actions()); key names an action's key message and hint its label.
type rebound struct {
	*Model
	label map[string]string
}

func newRebound(t *testing.T) rebound {
	t.Helper()
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	keys, label := map[string][]string{}, map[string]string{}
	runes := []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
	if len(screen.Actions()) > len(runes) {
		t.Fatalf("%d actions, %d keys to bind them to", len(screen.Actions()), len(runes))
	}
	for i, a := range screen.Actions() {
		r := runes[i] // more actions than letters: then capitals, then digits
		label[a] = "alt+" + string(r)
		keys[a] = []string{label[a]}
	}
	var accts []screen.Account
	for _, name := range []string{"Work", "Home"} {
		var msgs []model.Message
		for i := range 3 {
			msgs = append(msgs, model.Message{ID: model.MessageID{Account: name, Folder: "INBOX", UIDValidity: 1, UID: uint32(10 - i)},
				From: model.Address{Address: "a@example.com"}, Subject: "hello", Date: now.Add(-time.Duration(i) * time.Hour)})
		}
		accts = append(accts, &screentest.Account{Label: name, Page: accounts.Page{Messages: msgs}})
	}
	m, err := New(screen.Options{Accounts: accts, Keys: keys, Now: func() time.Time { return now }, NoTick: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	for i, a := range accts {
		m.Update(listedMsg{account: i, req: m.panes.accts[i].req, page: a.(*screentest.Account).Page})
	}
	m.Update(statusMsg{account: 1, health: accounts.Health{Name: "Home", State: accounts.StateCoolingDown, CooldownUntil: now.Add(42 * time.Second)}})
	return rebound{Model: m, label: label}
}

// press sends the key of an action.
func (r rebound) press(action string) tea.Cmd {
	_, cmd := r.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(r.label[action][len("alt+")])}, Alt: true})
	return cmd
}

// checkHelp: every binding the help shows in this view names a rebound
// key, one it is bound to.
func (r rebound) checkHelp(t *testing.T, view string) {
	t.Helper()
	for _, col := range r.helpKeys().FullHelp() {
		for _, b := range col {
			h := b.Help().Key
			if !strings.HasPrefix(h, "alt+") || !strings.Contains(strings.Join(b.Keys(), " "), h) {
				t.Errorf("%s: the help names %q for %q (keys %q)", view, h, b.Help().Desc, b.Keys())
			}
		}
	}
}

// After every action is rebound under [keys], the header, the help, the
// details and the status lines name the new keys, and the keys they name
// do what they say.
func TestHintsFollowRebinding(t *testing.T) {
	r := newRebound(t)
	l := r.label
	now := r.env.Opts.Now()
	r.checkHelp(t, "list")

	r.press("next_account")
	r.press("next_account")
	if got, want := r.header(now), "Home · 3 messages · "+l["all_accounts"]+": all accounts"; !strings.HasPrefix(got, want) {
		t.Errorf("focused header %q, want it to begin %q", got, want)
	}

	r.press("details")
	if got, want := r.header(now), "account details · "+l["refresh"]+" refresh · "+l["back"]+" back"; r.frame.mode != modeDetails || got != want {
		t.Errorf("details (%s): header %q, want %q", r.frame.mode, got, want)
	}
	if v := ansi.Strip(r.View()); !strings.Contains(v, "(press "+l["refresh"]+" to try now)") {
		t.Errorf("the details do not name the rebound refresh key:\n%s", v)
	}
	r.checkHelp(t, "details")
	if r.press("refresh"); !strings.HasPrefix(r.frame.status, "refreshing Home") {
		t.Errorf("the refresh key of the details did not refresh: %q", r.frame.status)
	}
	if r.press("back"); r.frame.mode != modeList {
		t.Errorf("the back key of the details left %s", r.frame.mode)
	}

	r.press("open")
	r.Update(message.OpenedMsg{Req: r.viewer.Req, ID: r.viewer.ID, Body: model.Body{Text: strings.Repeat("line\n", 200)}})
	if got, want := r.header(now), "message · "+l["up"]+"/"+l["down"]+" scroll · "+l["back"]+" back"; r.frame.mode != modeMessage || got != want {
		t.Errorf("message (%s): header %q, want %q", r.frame.mode, got, want)
	}
	r.checkHelp(t, "message")
	for _, step := range []struct {
		action string
		want   int
	}{{"down", 1}, {"page_down", 1 + r.viewer.Viewport.Height}, {"up", r.viewer.Viewport.Height}, {"page_up", 0}} {
		if r.press(step.action); r.viewer.Viewport.YOffset != step.want {
			t.Errorf("message: %s scrolled to line %d, want %d", step.action, r.viewer.Viewport.YOffset, step.want)
		}
	}
	if r.press("back"); r.frame.mode != modeList {
		t.Errorf("the back key of a message left %s", r.frame.mode)
	}

	r.press("move")
	if got, want := r.header(now), "move 1 message · "+l["open"]+" pick · "+l["back"]+" cancel"; r.frame.mode != modePicker || got != want {
		t.Errorf("picker (%s): header %q, want %q", r.frame.mode, got, want)
	}
	r.checkHelp(t, "picker")
	r.Update(picker.FoldersMsg{Req: r.top.(picker.Move).Req, Folders: []string{"Archive", "Later"}})
	if r.Update(tea.KeyMsg{Type: tea.KeyEsc}); r.frame.mode != modePicker {
		t.Error("esc cancelled a move with back bound elsewhere")
	}
	if r.press("back"); r.frame.mode != modeList || r.frame.status != "move cancelled" {
		t.Errorf("the back key of the picker: %s, %q", r.frame.mode, r.frame.status)
	}
	r.press("move")
	r.Update(picker.FoldersMsg{Req: r.top.(picker.Move).Req, Folders: []string{"Archive", "Later"}})
	if r.Update(tea.KeyMsg{Type: tea.KeyEnter}); r.frame.mode != modePicker {
		t.Error("enter picked a folder with open bound elsewhere")
	}
	if r.press("filter"); !r.top.(picker.Move).Typing() {
		t.Error("the filter key of the picker did not start its filter")
	}
	r.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l")})
	if r.press("back"); r.top.(picker.Move).Typing() || r.frame.mode != modePicker {
		t.Errorf("the back key in the picker's filter: %s", r.frame.mode)
	}
	r.press("down")
	if r.press("open"); r.frame.mode != modeList || r.frame.status != "moved to Later: 1 message…" {
		t.Errorf("the open key of the picker: %s, %q", r.frame.mode, r.frame.status)
	}
	r.press("all_accounts")

	r.press("filter")
	r.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("hello")})
	if r.Update(tea.KeyMsg{Type: tea.KeyEnter}); !r.filter.active {
		t.Error("enter closed the filter with open bound elsewhere")
	}
	r.press("open")
	if got := r.header(now); !strings.Contains(got, `filter "hello": `) || !strings.HasSuffix(got, " shown ("+l["back"]+" clears)") {
		t.Errorf("filter header %q does not name the rebound back key", got)
	}
	if r.press("back"); r.filter.text() != "" {
		t.Errorf("the back key did not clear the filter %q", r.filter.text())
	}

	// An action left unconfirmed names the refresh key that checks again.
	before := map[int]bool{}
	for id := range r.triage.intentGroup {
		before[id] = true // the move's, never answered
	}
	row, _ := r.list.selected()
	r.press("archive")
	for id := range r.triage.intentGroup {
		if !before[id] {
			r.Update(appliedMsg{intent: id, results: []model.ItemResult{{UID: row.ID.UID, Kind: model.ResultUnknown}}})
		}
	}
	if want := "check again with " + l["refresh"] + ")"; !strings.Contains(r.frame.status, want) {
		t.Errorf("status %q does not say %q", r.frame.status, want)
	}
	// A failed notify_cmd points to the details by their key.
	r.Update(notify.RanMsg{Err: errors.New("exit status 1")})
	if want := "(" + l["details"] + ": details)"; !strings.HasSuffix(r.frame.status, want) {
		t.Errorf("status %q does not end in %q", r.frame.status, want)
	}
}

// The review screen and the drafts view name the rebound keys too, and
// the countdown names the rebound undo.
func TestWritingHintsFollowRebinding(t *testing.T) {
	r := newRebound(t)
	l := r.label
	now := r.env.Opts.Now()
	r.compose.Review = true
	r.setMode(modeReview)
	want := "review · " + l["send"] + " send · " + l["edit"] + " edit · " + l["attach"] + " attach · " + l["postpone"] + " postpone · " + l["discard"] + " discard · " + l["back"] + " keep as draft"
	if got := r.header(now); got != want {
		t.Errorf("review header %q, want %q", got, want)
	}
	r.checkHelp(t, "review")
	r.show(modeDrafts, compose.NewDrafts(&r.env, []screen.Account{r.panes.accts[0].acct}))
	want = "drafts and outbox · " + l["open"] + " open · " + l["send"] + " send again · " + l["discard"] + " discard · " + l["back"] + " back"
	if got := r.header(now); got != want {
		t.Errorf("drafts header %q, want %q", got, want)
	}
	r.checkHelp(t, "drafts")
	r.compose.Waiting = &compose.WaitingSend{Entry: outbox.Entry{SendAt: now.Add(9 * time.Second)}}
	if line, ok := r.compose.Countdown(now); !ok || line != "sending in 9s · "+l["undo"]+" undo" {
		t.Errorf("countdown %q", line)
	}
}
