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
// it prints holds it, back in INBOX and unread.
func TestListWakesASnoozedMessage(t *testing.T) {
	srv := facetest.Sam(t, facetest.Canary, nil)
	raw := imaptest.Mail{From: "Ann <ann@example.com>", Subject: "wake me", Date: time.Now(), Body: "x"}.Bytes()
	if _, err := srv.Append("sam", "INBOX", raw, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	path := facetest.Write(t, facetest.IMAP("Work", srv.Port(), facetest.Env("UNIBOX_TEST_PW")))
	t.Setenv("UNIBOX_TEST_PW", facetest.Canary)
	cs := facetest.MCP(t, path)
	var list agent.ListOut
	facetest.Call(t, cs, "list_messages", agent.ListIn{}, &list)
	if len(list.Messages) != 1 {
		t.Fatalf("list: %+v", list.Messages)
	}
	facetest.Call(t, cs, "set_flags", agent.FlagsIn{IDs: []string{list.Messages[0].ID}, Seen: ptr(true)}, nil)
	until := time.Now().Add(time.Second)
	var w agent.WriteOut
	facetest.Call(t, cs, "snooze", agent.SnoozeIn{IDs: []string{list.Messages[0].ID}, Until: until.Format(time.RFC3339Nano)}, &w)
	if w.Outcomes[0].Status != "done" {
		t.Fatalf("snooze: %+v", w.Outcomes)
	}
	cs.Close()
	if out, code, _ := facetest.ListJSON(t, "--config", path); code != launch.ExitOK || len(out.Messages) != 0 {
		t.Fatalf("before its time: exit %d, %+v", code, out.Messages)
	}
	time.Sleep(time.Until(until) + 20*time.Millisecond) // the wake time itself
	out, code, _ := facetest.ListJSON(t, "--config", path)
	if code != launch.ExitOK || len(out.Messages) != 1 || out.Messages[0].Subject != "wake me" || out.Messages[0].Seen {
		t.Fatalf("after its time: exit %d, %+v", code, out.Messages)
	}
}

func ptr[T any](v T) *T { return &v }
