package config

import (
	"errors"
	"strings"
	"testing"
)

// TestAgentTable reads [agent] max_drafts_per_hour, defaulting to 100,
// and names the line and key of a bad value.
func TestAgentTable(t *testing.T) {
	good := []struct {
		name, src string
		want      int
	}{
		{"default", "", DefaultMaxDraftsPerHour},
		{"set", "[agent]\nmax_drafts_per_hour = 7\n", 7},
		{"off", "[agent]\nmax_drafts_per_hour = 0\n", 0},
	}
	for _, tt := range good {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("t.toml", []byte("[[account]]\n"+imapOK+tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if c.Agent.MaxDraftsPerHour != tt.want {
				t.Fatalf("max_drafts_per_hour = %d, want %d", c.Agent.MaxDraftsPerHour, tt.want)
			}
		})
	}
	bad := []struct{ name, src, want string }{
		{"negative", "[agent]\nmax_drafts_per_hour = -1\n", "t.toml:7: agent.max_drafts_per_hour: must be between 0 (agents may not draft) and 10000 (got -1)"},
		{"huge", "[agent]\nmax_drafts_per_hour = 20000\n", "t.toml:7: agent.max_drafts_per_hour: must be between 0"},
		{"wrong type", "[agent]\nmax_drafts_per_hour = \"many\"\n", "t.toml:7: agent.max_drafts_per_hour:"},
		{"unknown key", "[agent]\nmax_draft_per_hour = 5\n", "t.toml:7: agent.max_draft_per_hour: unknown key"},
		{"proposals negative", "[agent]\nmax_rule_proposals_per_hour = -3\n", "t.toml:7: agent.max_rule_proposals_per_hour: must be between 0 (agents may not propose rules) and 1000 (got -3)"},
		{"proposals huge", "[agent]\nmax_rule_proposals_per_hour = 5000\n", "t.toml:7: agent.max_rule_proposals_per_hour: must be between 0"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte("[[account]]\n"+imapOK+tt.src))
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant %s...", err, tt.want)
			}
		})
	}
}

// max_rule_proposals_per_hour defaults to 20; 0 turns proposals off.
func TestAgentRuleProposals(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want int
	}{{"", DefaultMaxRuleProposalsPerHour}, {"[agent]\nmax_rule_proposals_per_hour = 0\n", 0}, {"[agent]\nmax_rule_proposals_per_hour = 5\n", 5}} {
		c, err := Parse("t.toml", []byte("[[account]]\n"+imapOK+tt.src))
		if err != nil || c.Agent.MaxRuleProposalsPerHour != tt.want {
			t.Errorf("%q: %d, %v; want %d", tt.src, c.Agent.MaxRuleProposalsPerHour, err, tt.want)
		}
	}
}
