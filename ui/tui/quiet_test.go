package tui

import (
	"testing"

	"unibox/accounts/config"
	"unibox/model"
	"unibox/model/rules"
)

// notify_cmd leaves out what a rule with notify = false matches, in that
// rule's accounts only.
func TestQuietByRules(t *testing.T) {
	from, err := rules.Compile("*@lists.example")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Rules: []rules.Rule{{Name: "lists", Accounts: []string{"Work"}, Action: rules.Flag, Quiet: true, Match: rules.Match{From: from}}}}
	quiet := quietByRules(config.WatchRules(cfg))
	msg := func(account, addr string) model.Message {
		return model.Message{ID: model.MessageID{Account: account}, From: model.Address{Address: addr}}
	}
	for _, tc := range []struct {
		m    model.Message
		want bool
	}{
		{msg("Work", "news@lists.example"), true},
		{msg("Home", "news@lists.example"), false},
		{msg("Work", "boss@work.example"), false},
	} {
		if got := quiet(tc.m); got != tc.want {
			t.Errorf("%s from %s: quiet %v, want %v", tc.m.ID.Account, tc.m.From.Address, got, tc.want)
		}
	}
	if quietByRules(nil) != nil {
		t.Error("the demo (no rules) has a quiet check")
	}
}
