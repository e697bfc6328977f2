package tui

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/review"
)

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
	d := mailcompose.Draft{From: model.Address{Name: "Sam ½", Address: "sam@example.com"}, Subject: "Invoice ① 漢字 " + strings.Repeat("long ", 30),
		To: []model.Address{{Name: name, Address: "evil@attacker.test"}, {Name: name, Address: "ann@bücher.example"},
			{Name: "高橋", Address: "takahashi@日本語のとても長いドメイン名の会社.example"}},
		Cc:   []model.Address{{Name: name, Address: "evil07@billing-department-of-example-corp-accounts.attacker.test"}},
		Body: "Please pay.\n"}
	for _, w := range []int{40, 41, 43, 47, 53, 60, 67, 80, 97, 120, 200} {
		for _, h := range []int{10, 11, 13, 17, 24, 40} {
			m := frameModel(t)
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			m.compose.Shown, m.compose.Review = d, true
			m.compose.Marks = review.Check(review.FromDraft(d), review.Known{})
			m.compose.Width, m.compose.Height = m.frame.width, m.list.height
			m.setMode(modeReview)
			checkFrameAt(t, m, w, h, "review")
			fixed, text := m.compose.Page(w)
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
