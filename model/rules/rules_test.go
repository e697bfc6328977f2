package rules

import (
	"testing"

	"unibox/model"
)

func TestPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		in      string
		want    bool
	}{
		{"*@news.example.com", "Letters@NEWS.example.com", true},
		{"*@news.example.com", "a@news.example.com.evil", false},
		{"*@news.example.com", "a@xnews.example.com", false},
		{"bob@example.com", "BOB@example.com", true},
		{"bob@example.com", "bob@example.co", false},
		{"invoice ?", "Invoice 7", true},
		{"invoice ?", "Invoice 77", false},
		{"*[urgent]*", "re: [URGENT] now", true},
		{"*(x)*", "a (x) b", true},
		{`\*star`, "*star", true},
		{`\*star`, "xstar", false},
		{"Grüße*", "GRÜSSE", false},
		{"grüße*", "Grüße aus Köln", true},
		{"*", "", true},
		{`re:^\[ci\] `, "[ci] build failed", true},
		{`re:^\[ci\] `, "[CI] build failed", false},
		{`re:(?i)^\[ci\] `, "[CI] build failed", true},
		{"line*", "line one\nline two", true},
	} {
		p, err := Compile(tc.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", tc.pattern, err)
			continue
		}
		if got := p.Match(tc.in); got != tc.want {
			t.Errorf("%q matches %q = %v, want %v", tc.pattern, tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"re:(", "re:a{2000}", string(make([]byte, 2000))} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q...): no error", bad[:min(len(bad), 10)])
		}
	}
	for pattern, want := range map[string]string{"Bob@Example.com": "bob@example.com", "*@x": "", "re:bob": "", `a\*b`: "a*b"} {
		p, _ := Compile(pattern)
		if got := p.Exactly(); got != want {
			t.Errorf("%q.Exactly() = %q, want %q", pattern, got, want)
		}
	}
}

func must(t *testing.T, s string) Pattern {
	t.Helper()
	p, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMatches(t *testing.T) {
	news := Mail{
		From:    model.Address{Name: "Example News", Address: "letters@news.example.com"},
		To:      []model.Address{{Address: "me@home.example"}},
		Cc:      []model.Address{{Name: "Team", Address: "team@work.example"}},
		Subject: "Weekly digest",
		ListID:  "Example weekly <weekly.news.example.com>",
		Headers: []model.Header{{Name: "List-Id", Value: "Example weekly <weekly.news.example.com>"}, {Name: "X-Mailer", Value: "Blaster 3"}},
	}
	plain := Mail{From: model.Address{Address: "mom@home.example"}, Subject: "dinner", HasAttachment: true}
	for _, tc := range []struct {
		name string
		m    Match
		mail Mail
		want bool
	}{
		{"from and any list", Match{From: must(t, "*@news.example.com"), ListID: must(t, "*")}, news, true},
		{"any list, none", Match{ListID: must(t, "*")}, plain, false},
		{"list id inside <>", Match{ListID: must(t, "weekly.news.example.com")}, news, true},
		{"list whole value", Match{ListID: must(t, "example weekly*")}, news, true},
		{"from by name", Match{From: must(t, "example news")}, news, true},
		{"all must hold", Match{From: must(t, "*@news.example.com"), Subject: must(t, "invoice*")}, news, false},
		{"cc any address", Match{Cc: must(t, "team@*")}, news, true},
		{"cc none given", Match{Cc: must(t, "*")}, plain, false},
		{"to", Match{To: must(t, "me@*")}, news, true},
		{"header by name, any case", Match{HeaderName: "x-mailer", Header: must(t, "blaster*")}, news, true},
		{"header absent", Match{HeaderName: "X-Spam", Header: must(t, "*")}, news, false},
		{"has attachment", Match{Attachment: true, HasAttached: true}, plain, true},
		{"has no attachment", Match{Attachment: true, HasAttached: false}, plain, false},
		{"empty match never acts", Match{}, news, false},
	} {
		if got := tc.m.Matches(tc.mail); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The first rule that matches acts; continue lets later ones act too; a
// rule of other accounts is skipped; a trash of mail from someone the
// person wrote to is protected unless the rule names that address.
func TestDecide(t *testing.T) {
	mail := Mail{From: model.Address{Address: "Mom@home.example"}, Subject: "Sale now on"}
	rule := func(name string, a Action, from string, cont bool, accounts ...string) Rule {
		return Rule{Name: name, Action: a, Match: Match{From: must(t, from)}, Continue: cont, Accounts: accounts}
	}
	written := func(addr string) bool { return addr == "mom@home.example" }
	names := func(ds []Decision) (out []string) {
		for _, d := range ds {
			n := d.Rule.Name
			if d.Protected {
				n += "(protected)"
			}
			out = append(out, n)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		rules []Rule
		want  []string
	}{
		{"first wins", []Rule{rule("a", Read, "*@home.example", false), rule("b", Flag, "*", false)}, []string{"a"}},
		{"continue", []Rule{rule("a", Read, "*@home.example", true), rule("b", Flag, "*", false), rule("c", Flag, "*", false)}, []string{"a", "b"}},
		{"other account", []Rule{rule("a", Read, "*", false, "Work"), rule("b", Flag, "*", false, "Home", "Work")}, []string{"b"}},
		{"protected trash", []Rule{rule("a", Trash, "*@home.example", false)}, []string{"a(protected)"}},
		{"trash naming her", []Rule{rule("a", Trash, "mom@home.example", false)}, []string{"a"}},
		{"archive is not protected", []Rule{rule("a", Archive, "*@home.example", false)}, []string{"a"}},
		{"protected does not stop", []Rule{rule("a", Trash, "*@home.example", false), rule("b", Trash, "mom@home.example", false), rule("c", Flag, "*", false)}, []string{"a(protected)", "b"}},
	} {
		got := names(Decide(tc.rules, "Home", mail, written))
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

func TestActionNames(t *testing.T) {
	for _, name := range ActionNames() {
		a, ok := ParseAction(name)
		if !ok || a.String() != name {
			t.Errorf("%q: %v %v", name, a, ok)
		}
	}
	if _, ok := ParseAction("delete"); ok {
		t.Error("delete is not an action")
	}
}
