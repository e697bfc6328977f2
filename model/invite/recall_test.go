package invite

import (
	"strings"
	"testing"
	"time"
)

// Recall finds the version an update changes (the organizer's, of a
// lower SEQUENCE; a stranger's never counts) and the reader's newest own
// answer in Sent; the card then says what changed and the answer sent.
func TestRecall(t *testing.T) {
	weekly := string(load(t, "outlook-weekly.ics"))
	organizer := "lukasz.nowak@contoso.example"
	earlier := strings.NewReplacer("SEQUENCE:2", "SEQUENCE:1", "20261208T140000", "20261208T130000", "20261208T150000", "20261208T140000").Replace(weekly)
	forged := strings.NewReplacer("SEQUENCE:2", "SEQUENCE:1", "Microsoft Teams Meeting", "Room 13").Replace(weekly)
	cur, err := Parse([]byte(weekly), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := Parse([]byte(earlier), time.UTC)
	spec, err := NewReply(old, "sam@example.com", Tentative, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	answeredAt := time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	versions := []Version{
		{Folder: "INBOX", UID: 1, Sender: organizer, At: time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC), Calendar: earlier},
		{Folder: "Sent", UID: 4, Sender: "sam@example.com", At: answeredAt, Calendar: string(spec.Calendar("", answeredAt))},
		{Folder: "INBOX", UID: 2, Sender: "mallory@evil.example", At: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC), Calendar: forged},
		{Folder: "INBOX", UID: 3, Sender: organizer, At: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC), Calendar: weekly}, // itself
	}
	rec := Recall(cur.Events[0], versions, []string{"Sam@Example.com"}, versions[3], time.UTC)
	got, answered := rec.Earlier, rec.Answered
	if got == nil || got.Sequence != 1 || got.Location != "Microsoft Teams Meeting" {
		t.Fatalf("earlier: %+v", got)
	}
	if answered == nil || answered.PartStat != "TENTATIVE" || !answered.At.Equal(answeredAt) {
		t.Fatalf("answered: %+v", answered)
	}
	c := Describe(cur, Reader{Addresses: []string{"sam@example.com"}, Zone: time.UTC, Sender: organizer, Earlier: got, Answered: answered})
	text := fieldText(c)
	if len(c.Changes) != 1 || c.Changes[0] != "time moved from 12:00 to 13:00" || !strings.Contains(text, "You: maybe (your answer of Sun 6 Dec 09:30)\n") ||
		strings.Contains(text, "You: not answered") {
		t.Fatalf("changes %q, fields:\n%s", c.Changes, text)
	}
	// A stranger's answer "as" the reader, and a forged newer version
	// alone, count for nothing.
	rec = Recall(cur.Events[0], []Version{versions[2], {Folder: "INBOX", UID: 9, Sender: "mallory@evil.example", At: answeredAt, Calendar: versions[1].Calendar}},
		[]string{"sam@example.com"}, versions[3], time.UTC)
	if rec.Earlier != nil || rec.Answered != nil || rec.Later != nil {
		t.Fatalf("a stranger's versions counted: %+v", rec)
	}
	// A CANCEL of one occurrence, later, by the organizer, is said on
	// the series' card; a stranger's is not.
	instance := strings.NewReplacer("METHOD:REQUEST", "METHOD:CANCEL", "SEQUENCE:2", "SEQUENCE:3",
		"\r\nRRULE:FREQ=WEEKLY", "\r\nRECURRENCE-ID;TZID=W. Europe Standard Time:20261215T140000\r\nX-RRULE:FREQ=WEEKLY").Replace(weekly)
	rec = Recall(cur.Events[0], append(versions, Version{Folder: "INBOX", UID: 5, Sender: organizer, At: answeredAt, Calendar: instance},
		Version{Folder: "INBOX", UID: 6, Sender: "mallory@evil.example", At: answeredAt, Calendar: strings.Replace(instance, "20261215T", "20261229T", 1)}),
		[]string{"sam@example.com"}, versions[3], time.UTC)
	if len(rec.Dropped) != 1 {
		t.Fatalf("dropped: %+v", rec.Dropped)
	}
	c = Describe(cur, Reader{Addresses: []string{"sam@example.com"}, Zone: time.UTC, Sender: organizer, Dropped: rec.Dropped})
	if !strings.Contains(fieldText(c), "Cancelled: the one of Tue 15 Dec 2026 13:00, since, by the organizer\n") {
		t.Fatalf("fields:\n%s", fieldText(c))
	}
	// Read from the earlier version, the update is later: the card says
	// it is out of date, and how.
	old, _ = Parse([]byte(earlier), time.UTC)
	rec = Recall(old.Events[0], versions, []string{"sam@example.com"}, versions[0], time.UTC)
	if rec.Later == nil || rec.Later.Sequence != 2 {
		t.Fatalf("later: %+v", rec.Later)
	}
	c = Describe(old, Reader{Addresses: []string{"sam@example.com"}, Zone: time.UTC, Sender: organizer, Later: rec.Later})
	if len(c.Warnings) != 1 || c.Warnings[0] != "updated since by the organizer: time moved from 12:00 to 13:00" {
		t.Fatalf("warnings %q", c.Warnings)
	}
}
