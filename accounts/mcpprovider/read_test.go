package mcpprovider

import (
	"slices"
	"testing"

	"unibox/model"
)

// page merges listings: newest first, each uid once, only the asked
// folder, older than BeforeUID, unread only when asked, at most limit.
func TestPageMerge(t *testing.T) {
	p := &mcpProvider{account: "acct", prof: &profile{}}
	msg := func(uid uint32, folder string, seen bool) parsed {
		return parsed{uid: uid, folder: folder, flagsKnown: true, msg: model.Message{Seen: seen}}
	}
	a := listing{total: 9, msgs: []parsed{msg(3, "", false), msg(9, "INBOX", true), msg(5, "Sent", false)}}
	b := listing{msgs: []parsed{msg(9, "", true), msg(7, "inbox", false), msg(1, "", false)}}
	cases := []struct {
		name   string
		limit  int
		before uint32
		unread bool
		want   []uint32
	}{
		{"merged", 10, 0, false, []uint32{9, 7, 3, 1}},
		{"limit", 2, 0, false, []uint32{9, 7}},
		{"before", 10, 7, false, []uint32{3, 1}},
		{"unread", 10, 0, true, []uint32{7, 3, 1}},
	}
	for _, c := range cases {
		pg := p.page("INBOX", []listing{a, b}, c.limit, c.before, c.unread)
		var got []uint32
		for _, m := range pg.Messages {
			got = append(got, m.ID.UID)
			if m.ID.Account != "acct" || m.ID.Folder != "INBOX" || m.ID.UIDValidity != 0 {
				t.Errorf("%s: id %+v", c.name, m.ID)
			}
		}
		if !slices.Equal(got, c.want) || pg.More || pg.Total != 9 {
			t.Errorf("%s: uids %v total %d more %v, want %v", c.name, got, pg.Total, pg.More, c.want)
		}
	}
	if got := (&mcpProvider{prof: &profile{maxLimit: 100}}).limit(500); got != 100 {
		t.Errorf("limit cap: %d", got)
	}
	if got := (&mcpProvider{prof: &profile{}}).limit(0); got != defaultLimit {
		t.Errorf("default limit: %d", got)
	}
}
