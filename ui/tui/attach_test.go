package tui

import (
	"errors"
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/runnable"
)

// The attachments' flow is the viewer's: it runs on the viewer alone and
// tells the status line by noteMsg, and a transfer's end frees the next
// one, whatever screen is up by then.
func TestAttachmentsTellTheStatusLine(t *testing.T) {
	id := model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 7}
	two := model.Body{Message: model.Message{ID: id}, Attachments: []model.Attachment{{Name: "a.pdf", Size: 10}, {Name: "b.pdf", Size: 10}}}
	one := model.Body{Message: model.Message{ID: id}, Attachments: two.Attachments[:1]}
	busy := &transfer{req: 4, verb: "saving", name: `"a.pdf"`, size: 4 << 20, written: func() int64 { return 0 }}
	keys := DefaultKeyMap()
	refused := &runnable.Refused{Name: "a.exe", Reason: "runs code"}
	for _, tc := range []struct {
		name   string
		body   model.Body
		busy   bool
		msg    tea.Msg
		said   []noteMsg
		stays  bool // the transfer under way is still busy after
		listed bool // the attachment list is open after
	}{
		{"not loaded", model.Body{}, false, typed(keys.Attachments.Keys()[0]), []noteMsg{{"the message has not loaded yet", true}}, false, false},
		{"none", model.Body{Message: model.Message{ID: id}}, false, typed(keys.Attachments.Keys()[0]), []noteMsg{{"this message has no attachments", false}}, false, false},
		{"list", two, false, typed(keys.Attachments.Keys()[0]), nil, false, true},
		{"one at a time", one, true, typed(keys.SaveAttachment.Keys()[0]), []noteMsg{{`saving "a.pdf" is under way`, true}}, true, false},
		{"progress", two, true, progressMsg{req: 4, written: 2 << 20}, []noteMsg{{`saving "a.pdf" [##########··········]  50% 2.0 MB of 4.0 MB`, false}}, true, false},
		{"saved", two, true, savedMsg{req: 4, path: "/d/a.pdf"}, []noteMsg{{"saved /d/a.pdf", false}}, false, false},
		{"not saved", two, true, savedMsg{req: 4, err: errors.New("disk full")}, []noteMsg{{"not saved: disk full", true}}, false, false},
		{"a late answer", two, true, savedMsg{req: 3, path: "/d/old"}, []noteMsg{{"saved /d/old", false}}, true, false},
		{"refused", two, true, attachOpenedMsg{req: 4, name: `"a.exe"`, err: refused}, []noteMsg{{refused.Error(), true}}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{keys: keys, opts: Options{CallTimeout: time.Second}}
			v := newViewer(DefaultStyles(), keys, time.UTC)
			v.att.e = e
			v.att.account = func(string) (Account, bool) { return nil, false }
			v.id, v.body = id, tc.body
			if tc.busy {
				v.att.busy = busy
			}
			if k, ok := tc.msg.(tea.KeyMsg); ok {
				if _, took := v.attachKey(k); !took {
					t.Fatalf("%s was not the attachments' key", k)
				}
			} else {
				v.attachMsg(tc.msg)
			}
			var said []noteMsg
			for _, m := range e.said {
				said = append(said, m.(noteMsg))
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
