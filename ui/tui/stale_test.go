package tui

import (
	"fmt"
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// A degraded account's rows are marked stale whichever of its status event
// and its page reaches the UI first; a healthy or starting one's are not.
func TestStaleMarkDoesNotDependOnOrder(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	page := accounts.Page{Messages: []model.Message{{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 7},
		Subject: "hello", Date: now.Add(-time.Hour)}}}
	for _, state := range []accounts.State{accounts.StateConnected, accounts.StateIdle, accounts.StateConnecting, accounts.StateDisconnected,
		accounts.StateReconnecting, accounts.StateCoolingDown, accounts.StateAuthFailed} {
		for _, statusFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/statusFirst=%v", state, statusFirst), func(t *testing.T) {
				m, err := New(screen.Options{Accounts: []screen.Account{&screentest.Account{Label: "Work", Page: page}}, Now: func() time.Time { return now }, NoTick: true})
				if err != nil {
					t.Fatal(err)
				}
				defer m.Close()
				m.Init() // subscribes; its commands are not run
				status := statusMsg{account: 0, health: accounts.Health{Name: "Work", State: state}}
				listed := listedMsg{account: 0, req: m.panes.accts[0].req, page: page}
				if statusFirst {
					m.Update(status)
					m.Update(listed)
				} else {
					m.Update(listed)
					m.Update(status)
				}
				rows := m.inbox.Rows()
				if len(rows) != 1 {
					t.Fatalf("%d rows", len(rows))
				}
				if want := (accounts.Health{State: state}).Degraded(); rows[0].Stale != want {
					t.Fatalf("stale = %v, want %v", rows[0].Stale, want)
				}
			})
		}
	}
}
