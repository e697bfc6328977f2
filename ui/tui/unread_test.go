package tui

import (
	"testing"

	"unibox/accounts"
)

// The title is the sum of the inboxes' counts, "~" before it when any
// account's count is only what unibox holds of its inbox (an account with
// none unread says nothing either way).
func TestTitleSumsTheCounts(t *testing.T) {
	for _, tt := range []struct {
		name   string
		counts map[string]accounts.Count
		want   string
	}{
		{"none", map[string]accounts.Count{"A": {Exact: true}}, "unibox"},
		{"exact", map[string]accounts.Count{"A": {Unread: 60, Exact: true}, "B": {Unread: 27, Exact: true}}, "unibox (87 unread)"},
		{"one inexact", map[string]accounts.Count{"A": {Unread: 60, Exact: true}, "B": {Unread: 3}}, "unibox (~63 unread)"},
		{"inexact but none", map[string]accounts.Count{"A": {Unread: 60, Exact: true}, "B": {}}, "unibox (60 unread)"},
	} {
		p := accountPanes{unread: tt.counts}
		if got := p.title(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
