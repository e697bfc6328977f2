package tui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unibox/ui/tui/screen/screentest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"unibox/accounts"
	"unibox/model"
	"unibox/model/textsafe"
	"unibox/ui/tui/message"
	"unibox/ui/tui/screen"
)

// frameModel is a model over three accounts, one of them down, whose rows
// and names hold what terminals draw at widths of their own.
func frameModel(t *testing.T) *Model {
	t.Helper()
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	subjects := []string{"Family 👨‍👩‍👧 trip 🇩🇪 and Z̷̢̛̛̮a̵͓̐l̴̢̛g̸͍̈o̶̧̍", "Ambiguous … ● ± ½ ① Ωμέγα Жизнь ─", "Fullwidth ＡＢＣ 漢字かな and RTL שלום",
		"Zero\u200bwidth\u2060and\u202eRLO", "Hindi क्षत्रिय Tamil கொண்டு"}
	var accts []screen.Account
	for a, name := range []string{"Work", "Prívate 🇯🇵", "Ωmega\u202e"} {
		var msgs []model.Message
		for i := range 30 {
			msgs = append(msgs, model.Message{ID: model.MessageID{Account: name, Folder: "INBOX", UIDValidity: 1, UID: uint32(100 - i)},
				From: model.Address{Name: "Zoë 👩🏽‍💻 Müller ‖ Жанна", Address: "z@example.com"}, Subject: subjects[(i+a)%len(subjects)],
				Date: now.Add(-time.Duration(i*a+i) * 7 * time.Hour), Seen: i%3 == 0, Flagged: i%5 == 0})
		}
		accts = append(accts, &screentest.Account{Label: name, Page: accounts.Page{Messages: msgs}})
	}
	m, err := New(screen.Options{Accounts: accts, Now: func() time.Time { return now }, NoTick: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Init()
	for i, a := range accts {
		m.Update(listedMsg{account: i, req: m.panes.accts[i].req, page: a.(*screentest.Account).Page})
	}
	m.Update(statusMsg{account: 2, health: accounts.Health{Name: "Ωmega\u202e", State: accounts.StateCoolingDown, CooldownUntil: now.Add(42 * time.Second)}})
	return m
}

// checkFrameAt: h lines, none wider than w, the bar first (it names the
// account that is down), no bidi control reaching the terminal.
func checkFrameAt(t *testing.T, m *Model, w, h int, state string) {
	t.Helper()
	v := m.View()
	lines := strings.Split(v, "\n")
	fail := func(format string, a ...any) {
		t.Helper()
		t.Fatalf("%dx%d %s (ambiguous wide %v): %s\n%s", w, h, state, textsafe.AmbiguousWide(), fmt.Sprintf(format, a...), ansi.Strip(v))
	}
	if len(lines) != h {
		fail("%d lines", len(lines))
	}
	for i, l := range lines {
		if lw := textsafe.Width(ansi.Strip(l)); lw > w { // as a terminal draws it
			fail("line %d is %d columns", i+1, lw)
		}
	}
	if !strings.Contains(lines[0], "⏸") && !strings.Contains(lines[0], "+1 down") {
		fail("line 1 is not the account bar with the account that is down")
	}
	if strings.ContainsRune(v, '\u202e') {
		fail("a bidi override reaches the terminal")
	}
}

// The frame holds at every size from 40x10 up, in every view; the help
// pages through what it cannot show at once. Below 40x10 the screen is one
// line that says so.
func TestFrameAtEverySize(t *testing.T) {
	checkEverySize(t)
	for _, size := range [][2]int{{39, 10}, {40, 9}, {20, 5}, {1, 1}, {200, 3}} {
		m := frameModel(t)
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		want := textsafe.Fit(fmt.Sprintf("Terminal too small: %dx%d < 40x10", size[0], size[1]), size[0])
		if v := m.View(); v != want {
			t.Fatalf("%dx%d: %q, want %q", size[0], size[1], v, want)
		}
	}
}

// The same on a terminal that draws ambiguous-width characters wide. Every
// library must measure that way, and x/ansi (under lipgloss and bubbles)
// reads it only from RUNEWIDTH_EASTASIAN at start, as unibox is started
// after its probe: so the test runs itself again with it set.
func TestFrameAtEverySizeAmbiguousWide(t *testing.T) {
	if os.Getenv("RUNEWIDTH_EASTASIAN") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFrameAtEverySizeAmbiguousWide$", "-test.count=1")
		cmd.Env = append(os.Environ(), "RUNEWIDTH_EASTASIAN=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	if !textsafe.AmbiguousWide() {
		t.Fatal("RUNEWIDTH_EASTASIAN=1 did not make textsafe count ambiguous characters wide")
	}
	checkEverySize(t)
}

func checkEverySize(t *testing.T) {
	t.Helper()
	for _, w := range []int{40, 41, 43, 47, 53, 60, 67, 80, 97, 120, 200} {
		for _, h := range []int{10, 11, 13, 17, 24, 40} {
			m := frameModel(t)
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			checkFrameAt(t, m, w, h, "list")
			m.Update(press("G"))
			checkFrameAt(t, m, w, h, "after G")
			pages := 0
			for m.Update(press("?")); m.frame.help.ShowAll; m.Update(press("?")) {
				checkFrameAt(t, m, w, h, fmt.Sprintf("help page %d", pages+1))
				if pages++; pages > 24 {
					t.Fatalf("%dx%d: the help never closes", w, h)
				}
			}
			if w >= 80 && h >= 24 && pages != 1 {
				t.Fatalf("%dx%d: the help takes %d pages", w, h, pages)
			}
			m.Update(press("i"))
			checkFrameAt(t, m, w, h, "details")
			m.Update(press("esc"))
			m.Update(press("enter"))
			m.Update(message.OpenedMsg{Req: m.viewer.Req, ID: m.viewer.ID, Body: model.Body{Text: strings.Repeat("Ωμέγα ① … 漢字 text\n", 60)}})
			checkFrameAt(t, m, w, h, "message")
			m.Update(press("esc"))
			checkFrameAt(t, m, w, h, "back")
		}
	}
}

// press is the key message of s ("esc", "enter" or one rune).
func press(s string) tea.KeyMsg {
	switch s {
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}
