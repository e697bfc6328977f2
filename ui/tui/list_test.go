package tui

import (
	"strings"
	"testing"
	"time"

	"unibox/model"
)

// Every width is shared out exactly; the sender, then the tag, give way
// so the subject keeps a fair share; 80 columns and up keep the full
// sender and tag.
func TestLayoutColumns(t *testing.T) {
	tests := []struct {
		w, tagW int
		want    columns
	}{
		{115, 10, columns{tag: 10, sender: 18, subject: 77}},
		{75, 10, columns{tag: 10, sender: 18, subject: 37}},
		{55, 10, columns{tag: 10, sender: 15, subject: 20}},
		{35, 10, columns{tag: 5, sender: 8, subject: 12}},
		{35, 0, columns{tag: 0, sender: 13, subject: 12}},
		{12, 10, columns{tag: 4, sender: 8, subject: 1}},
	}
	for _, tt := range tests {
		got := layoutColumns(tt.w, tt.tagW)
		if got != tt.want {
			t.Errorf("layoutColumns(%d, %d) = %+v, want %+v", tt.w, tt.tagW, got, tt.want)
		}
		if tt.w >= 35 && got.tag+got.sender+got.subject+3+dateW != tt.w {
			t.Errorf("layoutColumns(%d, %d) = %+v does not add up to %d", tt.w, tt.tagW, got, tt.w)
		}
	}
}

// Tags cut to the same text are cut in the middle instead; others keep
// their beginning.
func TestTagCells(t *testing.T) {
	tags := map[string]string{"Account 01": "Account 01", "Account 11": "Account 11", "Personal": "Personal", "Work": "Work"}
	got := tagCells(tags, 5)
	want := map[string]string{"Account 01": "Ac…01", "Account 11": "Ac…11", "Personal": "Pers…", "Work": "Work "}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("tag of %q = %q, want %q", name, got[name], w)
		}
	}
}

// An invitation's row says what it is before its subject (issue 41), from
// the envelope alone: "[invite]" for one that asks, "[cancelled]" for a
// cancellation, nothing for an attendee's answer or plain mail.
func TestInvitationRowMark(t *testing.T) {
	l := listModel{width: 115}
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		inv  model.Invitation
		want string
	}{
		{model.InviteRequest, "[invite] Planning"},
		{model.InviteCalendar, "[invite] Planning"},
		{model.InviteCancel, "[cancelled] Planning"},
		{model.InviteReply, " Planning"},
		{model.InviteNone, " Planning"},
	} {
		r := model.Row{Message: model.Message{Subject: "Planning", Date: now, From: model.Address{Address: "org@x.org"}, Invitation: tc.inv}}
		line := l.renderRow(r, false, false, false, now, "Work", layoutColumns(115, 4))
		if !strings.Contains(line, tc.want) || (tc.want == " Planning" && strings.Contains(line, "[")) {
			t.Errorf("%q: row %q lacks %q", tc.inv, line, tc.want)
		}
	}
}
