package notifyargs

import (
	"errors"
	"slices"
	"testing"
)

func TestExpand(t *testing.T) {
	example := []string{"notify-send", "--app-name=unibox", "{account}: {from}", "{subject}"}
	for _, tc := range []struct {
		name string
		argv []string
		v    Values
		want []string
	}{
		{"the README example", example, Values{Account: "Work", From: "Ann", Subject: "Lunch", Count: 1},
			[]string{"--app-name=unibox", "Work: Ann", "Lunch"}},
		{"a value with spaces stays one argument", example, Values{Account: "Work", From: "Ann Lee", Subject: "a b  c"},
			[]string{"--app-name=unibox", "Work: Ann Lee", "a b  c"}},
		{"a value is never expanded again", example, Values{Account: "{subject}", From: "{from}", Subject: "{account} {count}"},
			[]string{"--app-name=unibox", "{subject}: {from}", "{account} {count}"}},
		{"markup is escaped in every value", example, Values{Account: "A&B", From: "<x@y>", Subject: "Q&A <b>now</b>"},
			[]string{"--app-name=unibox", "A&amp;B: &lt;x@y&gt;", "Q&amp;A &lt;b&gt;now&lt;/b&gt;"}},
		{"the template's own text is not escaped", []string{"p", "<b>{count}</b> & more"}, Values{Count: 3},
			[]string{"<b>3</b> & more"}},
		{"a value is never an option", example, Values{Account: "Work", From: "x", Subject: "--help"},
			[]string{"--app-name=unibox", "Work: x", " --help"}},
		{"an option's own value may start with a dash", []string{"p", "--hint=string:x:{subject}", "-{subject}"}, Values{Subject: "-v"},
			[]string{"--hint=string:x:-v", "--v"}},
		{"count", []string{"p", "{count} new"}, Values{Count: 12}, []string{"12 new"}},
		{"other braces are text", []string{"p", "{}", "{a b}", "{{subject}}"}, Values{Subject: "S"},
			[]string{"{}", "{a b}", "{S}"}},
		{"the program is run as written", []string{"{subject}"}, Values{Subject: "S"}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Expand(tc.argv, tc.v); !slices.Equal(got, tc.want) {
				t.Fatalf("Expand(%q) = %q, want %q", tc.argv, got, tc.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name      string
		argv      []string
		wantIndex int
		wantName  string
	}{
		{"known ones", []string{"notify-send", "{account}{from}", "{subject} {count}"}, -1, ""},
		{"none", []string{"notify-send", "-a", "unibox"}, -1, ""},
		{"unknown", []string{"notify-send", "{from}", "{body}"}, 2, "body"},
		{"case matters", []string{"notify-send", "{Subject}"}, 1, "Subject"},
		{"not in the program", []string{"/bin/{account}", "x"}, 0, "account"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.argv)
			if tc.wantIndex < 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var u *UnknownError
			if !errors.As(err, &u) || !errors.Is(err, ErrUnknown) || u.Index != tc.wantIndex || u.Name != tc.wantName {
				t.Fatalf("Check(%q) = %v, want {%s} at %d", tc.argv, err, tc.wantName, tc.wantIndex)
			}
		})
	}
}

func TestTemplated(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"notify-send", "{subject}"}, true},
		{[]string{"notify-send", "--app-name=unibox"}, false},
		{[]string{"/bin/{x}"}, false}, // the program is no argument
		{[]string{"p", "{}"}, false},
	} {
		if got := Templated(tc.argv); got != tc.want {
			t.Errorf("Templated(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
}
