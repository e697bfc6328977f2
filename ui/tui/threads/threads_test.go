package threads

import (
	"reflect"
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/ui/tui/screen"
)

// The thread view's flow is its own: run on the view alone, it tells the
// root to build the list again (on the conversation's row after a
// collapse), to open the next message of a conversation, and what the
// status line says.
func TestThreadViewTellsTheRoot(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	msg := func(uid uint32, tid string, age time.Duration) model.Message {
		return model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uid}, ThreadID: tid, Date: now.Add(-age)}
	}
	older, newer, alone := msg(1, "t1", time.Hour), msg(2, "t1", 0), msg(3, "", 0)
	conv := &model.Conversation{ID: "t1", Members: []model.MessageID{older.ID, newer.ID}, Count: 2, Expanded: true}
	keys := screen.DefaultKeyMap()
	press := func(b interface{ Keys() []string }) tea.KeyMsg { return screentest.Typed(b.Keys()[0]) }
	for _, tc := range []struct {
		name string
		on   bool
		do   func(v *View)
		said []tea.Msg
		isOn bool
	}{
		{"t turns it on", false, func(v *View) { *v, _ = v.Update(KeyMsg{Key: press(keys.Threads), Row: model.Row{}, OnRow: false}) },
			[]tea.Msg{RowsMsg{}, screen.NoteMsg{Text: "thread view: one row per conversation (" + screen.Hint(keys.Expand) + " opens one, t ends it)"}}, true},
		{"t turns it off", true, func(v *View) { *v, _ = v.Update(KeyMsg{Key: press(keys.Threads), Row: model.Row{}, OnRow: false}) },
			[]tea.Msg{RowsMsg{}, screen.NoteMsg{}}, false},
		{"a collapse follows the newest", true, func(v *View) {
			v.Expanded["t1"] = true
			*v, _ = v.Update(KeyMsg{Key: press(keys.Collapse), Row: model.Row{Message: older, Thread: conv}, OnRow: true})
		}, []tea.Msg{RowsMsg{Follow: &newer.ID}}, true},
		{"stored messages of an open conversation", true, func(v *View) {
			v.Expanded["t1"] = true
			v.Stored(StoredMsg{tid: "t1"})
		}, []tea.Msg{RowsMsg{}}, true},
		{"n to the next", false, func(v *View) { v.Step(older.ID, 1) },
			[]tea.Msg{screen.NoteMsg{Text: "message 2 of 2 in this conversation"}, OpenRowMsg{Row: model.Row{Message: newer}}}, false},
		{"p at the first", false, func(v *View) { v.Step(older.ID, -1) },
			[]tea.Msg{screen.NoteMsg{Text: "no more in this conversation (2 messages)"}}, false},
		{"n on a message alone", false, func(v *View) { v.Step(alone.ID, 1) },
			[]tea.Msg{screen.NoteMsg{Text: "this message is a conversation of its own"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &screen.Env{Keys: keys}
			inbox := model.NewInbox([]string{"Work"})
			inbox.Replace("Work", []model.Message{newer, older, alone}, false)
			v := &View{e: e, inbox: inbox, On: tc.on, Expanded: map[string]bool{}}
			tc.do(v)
			if !reflect.DeepEqual(e.Said, tc.said) {
				t.Errorf("told %+v, want %+v", e.Said, tc.said)
			}
			if v.On != tc.isOn {
				t.Errorf("on %v, want %v", v.On, tc.isOn)
			}
		})
	}
}

// The view takes only its own keys, so the list's and the triage's keys
// reach them: t always, and over a conversation's row with the view on,
// the keys that open or close it.
func TestViewTakesOnlyItsKeys(t *testing.T) {
	keys := screen.DefaultKeyMap()
	press := func(b interface{ Keys() []string }) tea.KeyMsg { return screentest.Typed(b.Keys()[0]) }
	closed := &model.Conversation{ID: "t1", Count: 2}
	open := &model.Conversation{ID: "t1", Count: 2, Expanded: true}
	for _, tc := range []struct {
		name string
		on   bool
		msg  KeyMsg
		want bool
	}{
		{"t with the view off", false, KeyMsg{Key: press(keys.Threads)}, true},
		{"expand with the view off", false, KeyMsg{Key: press(keys.Expand), Row: model.Row{Thread: closed}, OnRow: true}, false},
		{"expand on a conversation", true, KeyMsg{Key: press(keys.Expand), Row: model.Row{Thread: closed}, OnRow: true}, true},
		{"expand on a plain row", true, KeyMsg{Key: press(keys.Expand), Row: model.Row{}, OnRow: true}, false},
		{"collapse on a closed one", true, KeyMsg{Key: press(keys.Collapse), Row: model.Row{Thread: closed}, OnRow: true}, false},
		{"collapse on an open one", true, KeyMsg{Key: press(keys.Collapse), Row: model.Row{Thread: open}, OnRow: true}, true},
		{"archive on a conversation", true, KeyMsg{Key: press(keys.Archive), Row: model.Row{Thread: closed}, OnRow: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := New(&screen.Env{Keys: keys}, model.NewInbox(nil))
			v.On = tc.on
			if got := v.Takes(tc.msg); got != tc.want {
				t.Errorf("Takes = %v, want %v", got, tc.want)
			}
		})
	}
}
