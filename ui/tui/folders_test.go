package tui

import (
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// folderRows loads rows into the folder on screen as its first step would.
func folderRows(m *Model, msgs ...model.Message) {
	m.folderPage(folderPageMsg{visit: m.folder.visit, req: m.folder.req, page: accounts.Page{Messages: msgs}})
}

// An action's answer belongs to the visit it was begun in: after leaving
// the folder and opening it again, a late answer of the first visit must
// not settle the second visit's intent of the same number (each triage
// numbers its intents from one).
func TestFolderLateAnswerOfAnEarlierVisit(t *testing.T) {
	m, err := New(screen.Options{Accounts: []screen.Account{&screentest.Account{Label: "Work"}}, NoTick: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	a := model.Message{ID: model.MessageID{Account: "Work", Folder: "Lists", UIDValidity: 1, UID: 1}, Subject: "a", Date: time.Now()}
	b := model.Message{ID: model.MessageID{Account: "Work", Folder: "Lists", UIDValidity: 1, UID: 2}, Subject: "b", Date: time.Now()}

	m.enterFolder(0, "Lists")
	folderRows(m, a, b)
	m.act(model.Op{Action: model.ActArchive}, []model.Row{{Message: a}}) // intent 1 of the first visit
	late := folderAppliedMsg{appliedMsg: appliedMsg{intent: 1, results: []model.ItemResult{{UID: 1, Kind: model.ResultDone}}}, visit: m.folder.visit}

	m.leaveFolder()
	m.enterFolder(0, "Lists")
	folderRows(m, a, b)
	m.act(model.Op{Action: model.ActSetSeen, Value: true}, []model.Row{{Message: b}}) // intent 1 of the second

	m.Update(late)
	in := m.triage.t.Intent(1)
	if in == nil || in.Op.Action != model.ActSetSeen || in.Items[0].State != model.ItemPending {
		t.Fatalf("the second visit's intent was settled by the first visit's answer: %+v", in)
	}
}

// The folder's loading is the folder view's own, run on the view alone
// with the accounts it reads: nothing when no folder is on screen, one
// request at a time (a second while one runs is one more after it), and
// the badge names the folder beside its account only.
func TestFolderViewLoadsAlone(t *testing.T) {
	accts := []screen.Account{&screentest.Account{Label: "Work"}, &screentest.Account{Label: "Home"}}
	for _, tc := range []struct {
		name           string
		v              folderVisit
		cmd, again     bool
		req            uint64
		badge0, badge1 string
	}{
		{"no folder", folderVisit{}, false, false, 0, "", ""},
		{"a folder", folderVisit{on: true, account: 1, name: "Lists"}, true, false, 1, "", "Lists"},
		{"while one runs", folderVisit{on: true, account: 1, name: "Lists", loading: true, req: 7}, false, true, 7, "", "Lists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &screen.Env{Opts: screen.Options{Accounts: accts, PageSize: 50, CallTimeout: time.Second}}
			v := tc.v
			cmd := v.load(e)
			if (cmd != nil) != tc.cmd || v.again != tc.again || v.req != tc.req {
				t.Errorf("cmd %v, again %v, req %d; want %v, %v, %d", cmd != nil, v.again, v.req, tc.cmd, tc.again, tc.req)
			}
			if v.at(0) != tc.badge0 || v.at(1) != tc.badge1 {
				t.Errorf("badges %q %q, want %q %q", v.at(0), v.at(1), tc.badge0, tc.badge1)
			}
		})
	}
}
