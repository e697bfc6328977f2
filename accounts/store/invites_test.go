package store

import (
	"os"
	"strings"
	"testing"
	"time"

	"unibox/model"
	"unibox/model/invite"
)

func icsFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../model/invite/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The store keeps every invitation's event as a sync brings its calendar
// part, and an opened body's too; Events gives an event's versions in
// order for invite.Recall, in any case of its UID; a message expunged
// takes its event with it, and a part that does not parse is not kept.
func TestInviteEvents(t *testing.T) {
	s := newStore(t)
	weekly := icsFile(t, "outlook-weekly.ics")
	cancel := icsFile(t, "outlook-cancel-instance.ics")
	in := msgs(7, 3, 2, 1)
	in[2].Date, in[1].Date, in[0].Date = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	in[2].From.Address, in[1].From.Address = "Lukasz.Nowak@contoso.example", "lukasz.nowak@contoso.example"
	c := Changes{Folder: "INBOX", Reset: true, UIDValidity: 7, UIDNext: 4, Total: 3, New: in, Done: true, At: time.Now(),
		Calendars: map[uint32]string{1: weekly, 2: cancel, 3: "BEGIN:VCALENDAR\r\nnot a calendar"}}
	if _, err := s.ApplySync(ctx, work, c); err != nil {
		t.Fatal(err)
	}
	uid := "040000008200E00074C5B7101A82E00800000000D0F3E6F7A84ADB01000000000000000010000000"
	vs, err := s.Events(ctx, work, strings.ToLower(uid))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].UID != 1 || vs[1].UID != 2 || vs[0].Sender != "lukasz.nowak@contoso.example" || vs[0].Calendar != weekly || vs[0].UIDValidity != 7 {
		t.Fatalf("versions: %+v", vs)
	}
	// An opened body's part is kept too (a message stored before parts
	// came with the sync).
	b := model.Body{Message: in[0], Calendar: strings.Replace(weekly, "SEQUENCE:2", "SEQUENCE:4", 1)}
	if err := s.SaveBody(ctx, work, b, 1<<20); err != nil {
		t.Fatal(err)
	}
	if vs, _ = s.Events(ctx, work, uid); len(vs) != 3 {
		t.Fatalf("after opening uid 3: %d versions", len(vs))
	}
	inv, _ := invite.Parse([]byte(vs[2].Calendar), time.UTC)
	if inv.Events[0].Sequence != 4 {
		t.Fatalf("the opened body's part: %+v", inv.Events[0])
	}
	// Expunged: gone with its row.
	if _, err := s.ApplySync(ctx, work, Changes{Folder: "INBOX", UIDValidity: 7, UIDNext: 4, Total: 2, Held: 3, Checked: true, Present: [][2]uint32{{2, 3}}, Done: true, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if vs, _ = s.Events(ctx, work, uid); len(vs) != 2 || vs[0].UID != 2 {
		t.Fatalf("after uid 1 was expunged: %+v", vs)
	}
}
