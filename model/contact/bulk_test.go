package contact

import (
	"slices"
	"testing"

	"unibox/model"
)

func TestIsRobot(t *testing.T) {
	for addr, want := range map[string]bool{
		"noreply@github.com":             true,
		"no-reply@accounts.google.com":   true,
		"NoReply+abc@shop.example":       true,
		"donotreply@bank.example":        true,
		"do-not-reply@bank.example":      true,
		"MAILER-DAEMON@mx.example":       true,
		"notifications@github.com":       true,
		"bounces-123@mail.example":       true,
		"bounce@mail.example":            true,
		"golang-dev-bounces@example.org": true,
		"dev-request@lists.example.org":  true,
		"noreply":                        true,
		"ann@example.org":                false,
		"notifyme@example.org":           false, // a word, not notify-
		"bouncer@club.example":           false,
		"norene@example.org":             false,
		"jo.requester@example.org":       false,
	} {
		if got := IsRobot(addr); got != want {
			t.Errorf("IsRobot(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestBulkAddresses(t *testing.T) {
	ann := model.Address{Name: "Ann", Address: "Ann@Example.org"}
	list := model.Address{Address: "dev@lists.example.org"}
	me := model.Address{Address: "me@home.example"}
	h := func(kv ...string) []model.Header {
		var out []model.Header
		for i := 0; i < len(kv); i += 2 {
			out = append(out, model.Header{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		name    string
		headers []model.Header
		from    model.Address
		to, cc  []model.Address
		want    []string
	}{
		{"a person's mail", h("Subject", "hi"), ann, []model.Address{me}, nil, nil},
		{"a post to a list: the list, not its poster", h("List-Id", "Developers <dev.lists.example.org>", "List-Unsubscribe", "<mailto:dev-leave@lists.example.org>"),
			ann, []model.Address{list}, []model.Address{me}, []string{"dev@lists.example.org"}},
		{"List-Post names it", h("List-Id", "<x.example.org>", "List-Post", "<mailto:Posts@Example.net>"), ann, []model.Address{me}, nil, []string{"posts@example.net"}},
		{"List-Post NO", h("List-Id", "<x.example.org>", "List-Post", "NO (posting not allowed)"), ann, []model.Address{me}, nil, nil},
		{"a newsletter", h("List-Unsubscribe", "<https://shop.example/u>"), model.Address{Address: "news@shop.example"}, []model.Address{me}, nil, []string{"news@shop.example"}},
		{"bulk precedence", h("Precedence", "bulk"), model.Address{Address: "info@club.example"}, []model.Address{me}, nil, []string{"info@club.example"}},
		{"auto-submitted", h("Auto-Submitted", "auto-generated"), model.Address{Address: "ci@build.example"}, []model.Address{me}, nil, []string{"ci@build.example"}},
		{"auto-submitted no", h("Auto-Submitted", "no"), ann, []model.Address{me}, nil, nil},
	} {
		got := BulkAddresses(c.headers, c.from, c.to, c.cc)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
