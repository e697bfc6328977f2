package jsonview_test

import (
	"encoding/json"
	"testing"
	"time"

	"unibox/model"
	"unibox/ui/jsonview"
)

// row is how the faces embed the records: one after the other, their
// fields inline.
type row struct {
	jsonview.MessageRef
	jsonview.Envelope
}

// The records' JSON is a public interface every face shares: field names,
// their order, the id's escaping and the date's form (UTC, RFC 3339;
// empty when the message has none) are pinned here byte for byte, apart
// from the faces' own goldens (ui/binarytest/testdata).
func TestRecordsJSON(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	for _, c := range []struct {
		name string
		m    model.Message
		want string
	}{
		{
			name: "every field",
			m: model.Message{
				ID:        model.MessageID{Account: "Work", Folder: "INBOX", UIDValidity: 1700000000, UID: 42},
				MessageID: "abc@example.com",
				From:      model.Address{Name: "Ann Lee", Address: "ann@example.com"},
				Subject:   "Quarterly report",
				Date:      time.Date(2026, 11, 30, 10, 0, 0, 0, berlin),
				Seen:      true,
				ThreadID:  "ksxl5qdu7l2k4vfm",
			},
			want: `{"id":"Work/INBOX/1700000000/42","account":"Work","folder":"INBOX","message_id":"abc@example.com","from":{"name":"Ann Lee","address":"ann@example.com"},"subject":"Quarterly report","date":"2026-11-30T09:00:00Z","seen":true,"flagged":false,"thread_id":"ksxl5qdu7l2k4vfm"}`,
		},
		{
			name: "no date, names that need escaping in the id",
			m: model.Message{
				ID:      model.MessageID{Account: "Home Mail", Folder: "Entwürfe/2026", UIDValidity: 1, UID: 7},
				Flagged: true,
			},
			want: `{"id":"Home%20Mail/Entw%C3%BCrfe%2F2026/1/7","account":"Home Mail","folder":"Entwürfe/2026","message_id":"","from":{"name":"","address":""},"subject":"","date":"","seen":false,"flagged":true,"thread_id":""}`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := json.Marshal(row{jsonview.Ref(c.m), jsonview.Describe(c.m)})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestAccountRefJSON(t *testing.T) {
	got, err := json.Marshal(jsonview.AccountRef{Name: "Work", State: "cooling_down"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"Work","state":"cooling_down"}`; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
