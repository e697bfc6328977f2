package tui

import (
	"fmt"
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/model"
	"unibox/ui/tui/screen"
)

// BenchmarkView10k renders the screen over 10,000 messages in 3 accounts
// (goal ≤ 2 ms): only visible rows are drawn.
func BenchmarkView10k(b *testing.B) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	var accts []screen.Account
	for _, name := range []string{"Work", "Personal", "Yahoo"} {
		var msgs []model.Message
		for i := range 3334 {
			msgs = append(msgs, model.Message{ID: model.MessageID{Account: name, Folder: "INBOX", UIDValidity: 1, UID: uint32(5000 - i)},
				From: model.Address{Name: "Zoë Müller", Address: "z@example.com"}, Subject: fmt.Sprintf("Re: rollout plan, part %d 🍕", i),
				Date: now.Add(-time.Duration(i) * 11 * time.Minute), Seen: i%2 == 0})
		}
		accts = append(accts, &screentest.Account{Label: name, Page: accounts.Page{Messages: msgs}})
	}
	m, err := New(screen.Options{Accounts: accts, Now: func() time.Time { return now }, NoTick: true})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	for i, a := range accts {
		m.Update(listedMsg{account: i, req: 0, page: a.(*screentest.Account).Page})
		m.panes.accts[i].req = 0
	}
	if m.inbox.Len() < 10000 {
		b.Fatalf("rows %d", m.inbox.Len())
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// benchThreads is a TUI over 20,000 messages in 10,000 conversations of
// two (every other message answers the one before), in thread mode.
func benchThreads(b *testing.B) *Model {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	var msgs []model.Message
	for i := range 20000 {
		msgs = append(msgs, model.Message{ID: model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: uint32(30000 - i)},
			From: model.Address{Name: "Zoë Müller", Address: "z@example.com"}, Subject: fmt.Sprintf("Re: rollout plan, part %d 🍕", i/2),
			Date: now.Add(-time.Duration(i) * 11 * time.Minute), Seen: i%3 == 0, ThreadID: fmt.Sprintf("t%05d", i/2)})
	}
	acct := &screentest.Account{Label: "Work", Page: accounts.Page{Messages: msgs}}
	m, err := New(screen.Options{Accounts: []screen.Account{acct}, Now: func() time.Time { return now }, NoTick: true})
	if err != nil {
		b.Fatal(err)
	}
	m.Update(listedMsg{account: 0, req: 0, page: acct.Page})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	if n := len(m.list.rows); n != 10000 {
		b.Fatalf("conversations %d", n)
	}
	return m
}

// View in the thread view with 10,000 conversations (issue 28: ≤ 2 ms);
// compare with BenchmarkView10k in the same run.
func BenchmarkViewThreads10k(b *testing.B) {
	m := benchThreads(b)
	defer m.Close()
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// Regrouping 20,000 messages into 10,000 conversations, as every change
// to the rows does in the thread view.
func BenchmarkRebuildThreads10k(b *testing.B) {
	m := benchThreads(b)
	defer m.Close()
	b.ReportAllocs()
	for b.Loop() {
		m.rebuild()
	}
}

// The same rows regrouped with the thread view off: the baseline of
// BenchmarkRebuildThreads10k.
func BenchmarkRebuildFlat20k(b *testing.B) {
	m := benchThreads(b)
	defer m.Close()
	m.threads.On = false
	b.ReportAllocs()
	for b.Loop() {
		m.rebuild()
	}
}
