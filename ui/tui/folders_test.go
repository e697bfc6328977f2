package tui

import (
	"testing"
	"time"
	"unibox/ui/tui/folder"
	"unibox/ui/tui/screen/screentest"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// folderRows loads rows into the folder on screen as its first step would.
func folderRows(m *Model, msgs ...model.Message) {
	m.folderPage(folder.PageMsg{Visit: m.folder.Visit, Req: m.folder.Req, Page: accounts.Page{Messages: msgs}})
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
	late := folderAppliedMsg{appliedMsg: appliedMsg{intent: 1, results: []model.ItemResult{{UID: 1, Kind: model.ResultDone}}}, visit: m.folder.Visit}

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
