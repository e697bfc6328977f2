package message

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/ui/tui/screen/screentest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The card of each invitation kind, as the view draws it above the body
// at 80 columns for Sam in New York (issue 41): an Outlook series in its
// Windows zone, a cancelled instance, an update from someone who is not
// the organizer, and a part that cannot be read.
func TestInvitationCard(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "model", "invite", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	organizer := model.Address{Name: "Łukasz Nowak", Address: "lukasz.nowak@contoso.example"}
	for _, tc := range []struct {
		name, file string
		from       model.Address
		calendar   string
	}{
		{name: "outlook-weekly", file: "outlook-weekly.ics", from: organizer},
		{name: "cancel-instance", file: "outlook-cancel-instance.ics", from: organizer},
		{name: "not-the-organizer", file: "outlook-weekly.ics", from: model.Address{Name: "Łukasz Nowak", Address: "mallory@evil.example"}},
		{name: "unreadable", calendar: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:x\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := New(screentest.Env(t), ny)
			v.own = []string{"sam@example.com"}
			cal := tc.calendar
			if tc.file != "" {
				cal = read(tc.file)
			}
			id := model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1, UID: 7}
			v.ID = id
			v = v.loaded(model.Body{Message: model.Message{ID: id, From: tc.from, Subject: "Atlas weekly"}, Text: "Join the meeting.", Calendar: cal}, nil)
			got := strings.Join(v.cardLines(80), "\n") + "\n"
			golden := filepath.Join("testdata", "card-"+tc.name+".txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("card:\n%s\nwant:\n%s", got, want)
			}
			if !strings.Contains(v.content(), "Join the meeting.") {
				t.Errorf("the body is gone under the card:\n%s", v.content())
			}
		})
	}
}
