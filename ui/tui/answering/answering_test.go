package answering

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/invite"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screen/screentest"
)

func invitation(t *testing.T, attendee string) (invite.Invite, invite.Card, model.Body) {
	t.Helper()
	data, err := os.ReadFile("../../../model/invite/testdata/google-request.ics")
	if err != nil {
		t.Fatal(err)
	}
	cal := strings.ReplaceAll(string(data), "sam@example.com", attendee)
	inv, err := invite.Parse([]byte(cal), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	b := model.Body{Message: model.Message{From: model.Address{Name: "Calendar", Address: "calendar-notification@google.com"}}, Calendar: cal}
	card := invite.Describe(inv, invite.Reader{Addresses: []string{"sam@example.com", "sam@alias.example"}, Zone: time.UTC, Sender: b.From.Address})
	return inv, card, b
}

// Invited, the screen answers as the invited address; not invited, it
// asks which of the account's addresses answers (↓ picks the alias);
// either way it says the answer goes to the organizer, not the sender,
// and esc goes back without a word.
func TestAnswerScreen(t *testing.T) {
	own := []string{"sam@example.com", "sam@alias.example"}
	for _, tc := range []struct {
		name, attendee string
		keys           []string
		shows, as      string
	}{
		{"invited", "sam@alias.example", nil, "You answer as sam@alias.example; your answer so far: not answered.", "sam@alias.example"},
		{"not invited, the alias picked", "team@example.com", []string{"j"}, "Not addressed to you: answer as which address?", "sam@alias.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, card, b := invitation(t, tc.attendee)
			var s screen.Screen = New(screentest.Env(t), nil, b, inv, card, own, time.UTC)
			for _, k := range tc.keys {
				s, _ = screentest.Step(s, screentest.Typed(k))
			}
			view := s.View(100, 30)
			for _, want := range []string{tc.shows, "! the answer goes to ORGANIZER priya@example.com, not the sender calendar-notification@google.com"} {
				if !strings.Contains(view, want) {
					t.Errorf("the screen lacks %q:\n%s", want, view)
				}
			}
			if got := s.(View).answeringAs(); got != tc.as {
				t.Errorf("answers as %q, want %q", got, tc.as)
			}
			next, said := screentest.Step(s, tea.KeyMsg{Type: tea.KeyEsc})
			if next != nil || len(said) != 1 {
				t.Errorf("esc: %v %v", next, said)
			}
		})
	}
}
