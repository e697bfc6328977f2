package tui

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"unibox/model"
	"unibox/model/compose"
	"unibox/model/review"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// breakCells loses nothing and keeps every line within its width:
// hard, the lines joined are the text; soft, the same but for spaces.
func TestBreakCells(t *testing.T) {
	for _, tc := range []struct {
		name        string
		s           string
		first, rest int
		soft        bool
	}{
		{"a long address", "evil07@billing-department-of-example-corp-accounts.attacker.test", 20, 20, false},
		{"a mark, later lines narrower", "! Cc: the name shows another address: bob@uharness.test, but this goes to evil07@billing-department-of-example-corp-accounts.attacker.test", 30, 28, true},
		{"wide characters", "高橋@日本語のとても長いドメイン名.example", 9, 9, false},
		{"combining marks stay on their letter", "ệệệệệệệệệệệệ@x.example", 5, 5, false},
		{"a wide character wider than the line goes alone", "高@x", 1, 1, false},
		{"words", "Subject of a message that goes on for rather a long while", 12, 12, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := breakCells(tc.s, tc.first, tc.rest, tc.soft)
			got, want := strings.Join(parts, ""), textsafe.Cell(tc.s)
			if tc.soft {
				got, want = strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(want, " ", "")
			}
			if got != want {
				t.Fatalf("joined %q, want %q", got, want)
			}
			for i, p := range parts {
				w := tc.rest
				if i == 0 {
					w = tc.first
				}
				if textsafe.Width(p) > max(w, 2) || p == "" {
					t.Fatalf("line %d %q is %d columns, over %d (or empty)", i, p, textsafe.Width(p), w)
				}
			}
		})
	}
}

// One recipient: the address first and whole, however long its display
// name; the name after it, cut, or on a line of its own.
func TestAddressLines(t *testing.T) {
	c := composer{styles: screen.DefaultStyles()}
	name := "bob@uharness.test (Bob, Finance) - Example Corp"
	for _, tc := range []struct {
		name string
		a    model.Address
		want []string
	}{
		{"a short name after the address", model.Address{Name: "Bob", Address: "bob@example.com"},
			[]string{`bob@example.com  "Bob"`}},
		{"a long name cut after the address", model.Address{Name: name, Address: "e@a.test"},
			[]string{`e@a.test  "bob@uharness.te…"`}},
		{"too little room left: the name under the address",
			model.Address{Name: name, Address: "evil@attacker.test"},
			[]string{"evil@attacker.test", `"bob@uharness.test (Bob, F…"`}},
		{"an address longer than the line, wrapped; the name after its end",
			model.Address{Name: "Eve", Address: "evil@billing-department.attacker.test"},
			[]string{"evil@billing-department.atta", `cker.test  "Eve"`}},
		{"an IDN domain with its punycode", model.Address{Address: "ann@bücher.example"},
			[]string{"ann@bücher.example (xn--bche", "r-kva.example)"}},
		{"hidden characters in the name are spelled out", model.Address{Name: "Bob\u202e", Address: "b@x.example"},
			[]string{`b@x.example  "Bob<U+202E>"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := c.addressLines(tc.a, 28)
			for i := range got {
				got[i] = strings.TrimRight(got[i], " ")
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// The review of a hostile draft holds the frame at every size from 40x10
// up, on a terminal that draws ambiguous-width characters narrow and on
// one that draws them wide: h lines, none wider than w, the bar first, no
// bidi control; "↓ more" at the top of the page when it does not fit,
// and not at its end.
func TestReviewFrameAtEverySize(t *testing.T) {
	checkReviewEverySize(t)
	if os.Getenv("RUNEWIDTH_EASTASIAN") == "1" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReviewFrameAtEverySize$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RUNEWIDTH_EASTASIAN=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ambiguous wide: %v\n%s", err, out)
	}
}

func checkReviewEverySize(t *testing.T) {
	t.Helper()
	name := "bob@uharness.test (Bob, Finance) 👨‍👩‍👧 Жанна ①\u202e Z̷̢̛̛̮a̵͓̐l̴̢̛g̸͍̈o̶̧̍ 漢字かな"
	d := compose.Draft{From: model.Address{Name: "Sam ½", Address: "sam@example.com"}, Subject: "Invoice ① 漢字 " + strings.Repeat("long ", 30),
		To: []model.Address{{Name: name, Address: "evil@attacker.test"}, {Name: name, Address: "ann@bücher.example"},
			{Name: "高橋", Address: "takahashi@日本語のとても長いドメイン名の会社.example"}},
		Cc:   []model.Address{{Name: name, Address: "evil07@billing-department-of-example-corp-accounts.attacker.test"}},
		Body: "Please pay.\n"}
	for _, w := range []int{40, 41, 43, 47, 53, 60, 67, 80, 97, 120, 200} {
		for _, h := range []int{10, 11, 13, 17, 24, 40} {
			m := frameModel(t)
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			m.compose.shown, m.compose.review = d, true
			m.compose.marks = review.Check(review.FromDraft(d), review.Known{})
			m.compose.width, m.compose.height = m.frame.width, m.list.height
			m.setMode(modeReview)
			checkFrameAt(t, m, w, h, "review")
			fixed, text := m.compose.page(w)
			if below := len(fixed)+len(text) > m.list.height; strings.Contains(m.View(), "↓ more") != below {
				t.Fatalf("%dx%d: ↓ more at the top of the review is not %v:\n%s", w, h, below, ansi.Strip(m.View()))
			}
			m.Update(press("G"))
			checkFrameAt(t, m, w, h, "review, at its end")
			if strings.Contains(m.View(), "↓ more") {
				t.Fatalf("%dx%d: ↓ more at the end of the review:\n%s", w, h, ansi.Strip(m.View()))
			}
		}
	}
}
