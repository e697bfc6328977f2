package tui

import (
	"fmt"
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	"unibox/accounts"
	"unibox/ui/tui/screen"
)

// Every account message reaches the root through one dispatch, which
// drops one for an account the UI does not have (before any handler
// indexes the panes with it).
func TestAccountMsgForAnUnknownAccountIsDropped(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	for _, i := range []int{2, 99, -2} {
		for _, msg := range []accountMsg{
			statusMsg{account: i, health: accounts.Health{State: accounts.StateConnected}},
			pushedMsg{account: i},
			listedMsg{account: i},
			syncedMsg{listedMsg: listedMsg{account: i}},
			earlyPageMsg{listedMsg: listedMsg{account: i}},
			storedMatchMsg{account: i},
			refreshedMsg{account: i},
			searchedMsg{account: i},
		} {
			t.Run(fmt.Sprintf("%T/%d", msg, i), func(t *testing.T) {
				m, err := New(screen.Options{Accounts: []screen.Account{&screentest.Account{Label: "Work"}, &screentest.Account{Label: "Home"}},
					Now: func() time.Time { return now }, NoTick: true})
				if err != nil {
					t.Fatal(err)
				}
				defer m.Close()
				m.Init()
				if _, cmd := m.Update(msg); cmd != nil {
					t.Fatalf("a message for account %d was acted on", i)
				}
			})
		}
	}
}

// Every answer of an account's work is activity (the process rests once
// they stop); a key or a tick is not.
func TestAccountAnswersAreActivity(t *testing.T) {
	n := 0
	m, err := New(screen.Options{Accounts: []screen.Account{&screentest.Account{Label: "Work"}},
		Now: time.Now, NoTick: true, Activity: func() { n++ }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.Init()
	m.Update(tickMsg{})
	if n != 0 {
		t.Fatalf("a tick was activity")
	}
	m.Update(listedMsg{account: 0})
	m.Update(statusMsg{account: 0, health: accounts.Health{State: accounts.StateConnected}})
	if n != 2 {
		t.Fatalf("%d activities for two answers", n)
	}
	m.Update(listedMsg{account: 7}) // not an account of this UI
	if n != 2 {
		t.Fatalf("an answer for no account was activity")
	}
}
