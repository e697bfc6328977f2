package tui

import (
	"strings"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/ui/tui/accountbar"
)

// While a first sync fills the store, a connected badge says how far it
// is; the counts read as a badge has room for.
func TestSyncingBadge(t *testing.T) {
	for _, tt := range []struct {
		stored, total uint32
		want          string
	}{{200, 450, "syncing 200/450"}, {12_400, 100_000, "syncing 12k/100k"}, {0, 999, "syncing 0/999"}} {
		got := "syncing " + thousands(tt.stored) + "/" + thousands(tt.total)
		if got != tt.want {
			t.Errorf("%d/%d: %q, want %q", tt.stored, tt.total, got, tt.want)
		}
	}
	now := time.Now()
	bd := accountbar.Badge{Name: "Work", Health: accounts.Health{State: accounts.StateConnected, Push: accounts.PushLive}, Syncing: "syncing 12k/100k"}
	if l := accountbar.NewBadgeParts(bd, now).Label; l != "● connected · syncing 12k/100k" {
		t.Errorf("label %q", l)
	}
	bd.Health.State = accounts.StateCoolingDown
	if l := accountbar.NewBadgeParts(bd, now).Label; strings.Contains(l, "syncing") {
		t.Errorf("a degraded account says it syncs: %q", l)
	}
}
