package tui

import (
	"errors"
	"testing"
	"unibox/ui/tui/screen/screentest"

	"unibox/accounts"
)

// An account that comes back is listed again; its first connect, and a
// connect while its first page is on the way, are not.
func TestPaneHealthChangedBack(t *testing.T) {
	tests := []struct {
		from, to accounts.State
		loading  bool
		back     bool
	}{
		{accounts.StateCoolingDown, accounts.StateConnected, false, true},
		{accounts.StateReconnecting, accounts.StateConnected, false, true},
		{accounts.StateConnecting, accounts.StateConnected, false, true},
		{accounts.StateIdle, accounts.StateConnected, false, false},
		{accounts.StateCoolingDown, accounts.StateConnected, true, false},
		{accounts.StateConnected, accounts.StateConnected, false, false},
		{accounts.StateConnected, accounts.StateCoolingDown, false, false},
	}
	for _, tt := range tests {
		p := accountPane{health: accounts.Health{State: tt.from}, loading: tt.loading}
		p, back := p.healthChanged(accounts.Health{State: tt.to})
		if back != tt.back || p.health.State != tt.to {
			t.Errorf("%s → %s (loading %v): back %v, want %v", tt.from, tt.to, tt.loading, back, tt.back)
		}
	}
}

// A page answering a superseded request never reaches the inbox; an
// older page always does; a failure is kept for the details.
func TestPaneListed(t *testing.T) {
	p := accountPane{acct: &screentest.Account{Label: "Work"}}.Load(7)
	if _, current := p.listed(listedMsg{req: 6}); current {
		t.Fatal("an answer to request 6 was taken while 7 is current")
	}
	p, current := p.listed(listedMsg{req: 7, err: errors.New("boom")})
	if !current || p.loading || p.lastErr != "boom" {
		t.Fatalf("current %v, loading %v, lastErr %q", current, p.loading, p.lastErr)
	}
	p.paging = 1
	if p, current = p.listed(listedMsg{req: 3, older: true}); !current || p.paging != 0 {
		t.Fatalf("an older page: current %v, paging %v", current, p.paging)
	}
}
