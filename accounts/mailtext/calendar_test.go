package mailtext

import (
	"slices"
	"strings"
	"testing"
)

const testEvent = "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:1@x\r\nSUMMARY:Caf\u00e9\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

// TestParseKeepsTheCalendarPart: the first calendar part, however it is
// sent (an alternative, an .ics attachment, base64, another charset), is
// kept decoded with its method; the text body is unchanged by it.
func TestParseKeepsTheCalendarPart(t *testing.T) {
	latin1 := strings.ReplaceAll(testEvent, "\u00e9", "\xe9")
	tests := []struct {
		name, msg      string
		method, text   string
		attachments    []string
		problem        string
		wantNoCalendar bool
	}{
		{name: "alternative, base64", msg: crlf(
			"Content-Type: multipart/alternative; boundary=b", "",
			"--b", "Content-Type: text/plain; charset=utf-8", "", "You are invited.",
			"--b", `Content-Type: text/calendar; charset="UTF-8"; method=REQUEST`, "Content-Transfer-Encoding: base64", "",
			b64Lines([]byte(testEvent)), "--b--", ""), method: "REQUEST", text: "You are invited."},
		{name: "ics attachment beside an alternative", msg: crlf(
			"Content-Type: multipart/mixed; boundary=m", "",
			"--m", "Content-Type: text/plain", "", "See attached.",
			"--m", `Content-Type: application/ics; name="invite.ics"`, `Content-Disposition: attachment; filename="invite.ics"`, "",
			testEvent, "--m--", ""), text: "See attached.", attachments: []string{"invite.ics"}},
		{name: "latin-1 calendar, method in lower case", msg: crlf(
			"Content-Type: multipart/alternative; boundary=b", "",
			"--b", "Content-Type: text/plain", "", "Hi",
			"--b", "Content-Type: text/calendar; charset=iso-8859-1; method=cancel", "Content-Transfer-Encoding: 8bit", "",
			latin1, "--b--", ""), method: "CANCEL", text: "Hi"},
		{name: "hostile method parameter", msg: crlf(
			"Content-Type: text/calendar; method=\"REQ\x1b[2J\"", "", testEvent), method: "", text: ""},
		{name: "over 1 MB", msg: crlf(
			"Content-Type: multipart/alternative; boundary=b", "",
			"--b", "Content-Type: text/plain", "", "Big",
			"--b", "Content-Type: text/calendar; method=REQUEST", "",
			strings.Repeat("X-PAD:"+strings.Repeat("a", 70)+"\r\n", MaxCalendar/70), "--b--", ""),
			text: "Big", problem: "calendar part over 1 MB: not read", wantNoCalendar: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := parseString(tc.msg)
			if tc.wantNoCalendar {
				if m.Calendar != "" {
					t.Fatalf("kept %d bytes of a calendar over the cap", len(m.Calendar))
				}
				if !slices.Contains(m.Problems, tc.problem) {
					t.Fatalf("problems %q lack %q", m.Problems, tc.problem)
				}
			} else if m.Calendar != testEvent {
				t.Fatalf("calendar %q, want %q (problems %q)", m.Calendar, testEvent, m.Problems)
			}
			if m.CalendarMethod != tc.method {
				t.Errorf("method %q, want %q", m.CalendarMethod, tc.method)
			}
			if tc.text != "" && m.Text != tc.text {
				t.Errorf("text %q, want %q", m.Text, tc.text)
			}
			var names []string
			for _, a := range m.Attachments {
				names = append(names, a.Name)
			}
			if tc.attachments != nil && !slices.Equal(names, tc.attachments) {
				t.Errorf("attachments %q, want %q", names, tc.attachments)
			}
		})
	}
}
