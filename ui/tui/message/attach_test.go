package message

import (
	"errors"
	"fmt"
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/runnable"
	"unibox/ui/tui/screen"
)

// The attachments' flow is the viewer's: it runs on the viewer alone and
// tells the status line by noteMsg, and a transfer's end frees the next
// one, whatever screen is up by then.
func TestAttachmentsTellTheStatusLine(t *testing.T) {
	id := model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 7}
	two := model.Body{Message: model.Message{ID: id}, Attachments: []model.Attachment{{Name: "a.pdf", Size: 10}, {Name: "b.pdf", Size: 10}}}
	one := model.Body{Message: model.Message{ID: id}, Attachments: two.Attachments[:1]}
	busy := &transfer{req: 4, verb: "saving", name: `"a.pdf"`, size: 4 << 20, written: func() int64 { return 0 }}
	keys := screen.DefaultKeyMap()
	refused := &runnable.Refused{Name: "a.exe", Reason: "runs code"}
	for _, tc := range []struct {
		name   string
		body   model.Body
		busy   bool
		msg    tea.Msg
		said   []screen.NoteMsg
		stays  bool // the transfer under way is still busy after
		listed bool // the attachment list is open after
	}{
		{"not loaded", model.Body{}, false, screentest.Typed(keys.Attachments.Keys()[0]), []screen.NoteMsg{{Text: "the message has not loaded yet", Bad: true}}, false, false},
		{"none", model.Body{Message: model.Message{ID: id}}, false, screentest.Typed(keys.Attachments.Keys()[0]), []screen.NoteMsg{{Text: "this message has no attachments", Bad: false}}, false, false},
		{"list", two, false, screentest.Typed(keys.Attachments.Keys()[0]), nil, false, true},
		{"one at a time", one, true, screentest.Typed(keys.SaveAttachment.Keys()[0]), []screen.NoteMsg{{Text: `saving "a.pdf" is under way`, Bad: true}}, true, false},
		{"progress", two, true, ProgressMsg{req: 4, written: 2 << 20}, []screen.NoteMsg{{Text: `saving "a.pdf" [##########··········]  50% 2.0 MB of 4.0 MB`, Bad: false}}, true, false},
		{"saved", two, true, SavedMsg{req: 4, path: "/d/a.pdf"}, []screen.NoteMsg{{Text: "saved /d/a.pdf", Bad: false}}, false, false},
		{"not saved", two, true, SavedMsg{req: 4, err: errors.New("disk full")}, []screen.NoteMsg{{Text: "not saved: disk full", Bad: true}}, false, false},
		{"a late answer", two, true, SavedMsg{req: 3, path: "/d/old"}, []screen.NoteMsg{{Text: "saved /d/old", Bad: false}}, true, false},
		{"refused", two, true, AttachOpenedMsg{req: 4, name: `"a.exe"`, err: refused}, []screen.NoteMsg{{Text: refused.Error(), Bad: true}}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &screen.Env{Keys: keys, Opts: screen.Options{CallTimeout: time.Second}}
			e.Styles = screen.DefaultStyles()
			v := New(e, time.UTC)
			v.ID, v.body = id, tc.body
			if tc.busy {
				v.att.busy = busy
			}
			if k, ok := tc.msg.(tea.KeyMsg); ok {
				if _, took := v.AttachKey(k); !took {
					t.Fatalf("%s was not the attachments' key", k)
				}
			} else {
				v.AttachMsg(tc.msg)
			}
			var said []screen.NoteMsg
			for _, m := range e.Said {
				said = append(said, m.(screen.NoteMsg))
			}
			if fmt.Sprint(said) != fmt.Sprint(tc.said) {
				t.Errorf("told %v, want %v", said, tc.said)
			}
			if (v.att.busy != nil) != tc.stays || v.attach.open != tc.listed {
				t.Errorf("busy %v, list open %v; want %v, %v", v.att.busy != nil, v.attach.open, tc.stays, tc.listed)
			}
		})
	}
}
