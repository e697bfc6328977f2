package cli_test

import (
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/agent"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// `unibox list` wakes a snoozed message whose time has come: the listing
// it prints holds it, back in INBOX and unread; one whose time has not
// come stays away. Two messages, so that neither check hangs on how fast
// a loaded machine gets from the snooze to the first listing (one wake
// time a second away did not always outlast it).
func TestListWakesASnoozedMessage(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, nil)
	for _, subject := range []string{"wake me", "later"} {
		raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: subject, Date: time.Now(), Body: "x"}.Bytes()
		if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")))
	t.Setenv("UNIBOX_TEST_PW", facetest.Canary)
	cs := facetest.MCP(t, path)
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	if len(list.Messages) != 2 {
		t.Fatalf("list: %+v", list.Messages)
	}
	ids := map[string]string{}
	for _, m := range list.Messages {
		ids[m.Subject] = m.ID
	}
	facetest.Call(t, cs, "set_flags", agent.FlagsIn{IDs: []string{ids["wake me"], ids["later"]}, Seen: ptr(true)}, nil)
	soon := time.Now().Add(time.Second)
	for id, until := range map[string]time.Time{ids["wake me"]: soon, ids["later"]: time.Now().Add(time.Hour)} {
		var w agent.WriteOut
		facetest.Call(t, cs, "snooze", agent.SnoozeIn{IDs: []string{id}, Until: until.Format(time.RFC3339Nano)}, &w)
		if w.Outcomes[0].Status != "done" {
			t.Fatalf("snooze: %+v", w.Outcomes)
		}
	}
	cs.Close()
	time.Sleep(time.Until(soon) + 20*time.Millisecond) // the wake time itself
	out, code, _ := facetest.ListJSON(t, "--config", path)
	if code != launch.ExitOK || len(out.Messages) != 1 || out.Messages[0].Subject != "wake me" || out.Messages[0].Seen {
		t.Fatalf("after its time: exit %d, %+v (want only \"wake me\", unread: \"later\" waits an hour)", code, out.Messages)
	}
}

func ptr[T any](v T) *T { return &v }
