package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"unibox/accounts/testservers/imaptest"
	"unibox/ui/cli"
	"unibox/ui/facetest"
	"unibox/ui/launch"
)

// `list --threads` prints one entry per conversation of the listed
// messages: Bob's question and his thanks (linked by References) are one,
// with their ids oldest first; Eve's message with the same subject and
// no link stays apart; every message of `list --json` has the thread_id
// of its conversation.
func TestListThreads(t *testing.T) {
	srv := facetest.Sam(t, "pw", nil)
	at := time.Now().Add(-3 * time.Hour)
	for _, m := range []imaptest.Mail{
		{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "the boat", MessageID: "q@example.com", Date: at, Body: "Saturday?"},
		{From: "Eve <eve@example.com>", To: "sam@example.com", Subject: "the boat", MessageID: "x@example.com", Date: at.Add(time.Hour), Body: "Unrelated."},
		{From: "Bob <bob@example.com>", To: "sam@example.com", Subject: "Re: the boat", MessageID: "t@example.com", Date: at.Add(2 * time.Hour), Body: "Thanks!",
			Headers: map[string]string{"In-Reply-To": "<a@example.com>", "References": "<q@example.com> <a@example.com>"}},
	} {
		if _, err := srv.Append("sam", "INBOX", m.Bytes(), nil, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	path := facetest.OneAccount(t, srv)
	list, code, _ := facetest.ListJSON(t, "--config", path)
	if code != launch.ExitOK || len(list.Messages) != 3 {
		t.Fatalf("list: exit %d, %+v", code, list.Messages)
	}
	byMID := map[string]string{}
	for _, m := range list.Messages {
		byMID[m.MessageID] = m.ThreadID
	}
	if byMID["q@example.com"] == "" || byMID["q@example.com"] != byMID["t@example.com"] || byMID["x@example.com"] == byMID["q@example.com"] {
		t.Fatalf("thread ids: %v", byMID)
	}
	var stdout, stderr bytes.Buffer
	if code := cli.List([]string{"--config", path, "--json", "--threads"}, &stdout, &stderr); code != launch.ExitOK {
		t.Fatalf("list --threads: exit %d: %s", code, stderr.String())
	}
	var th cli.ThreadsJSON
	if err := json.Unmarshal(stdout.Bytes(), &th); err != nil {
		t.Fatal(err)
	}
	if len(th.Threads) != 2 {
		t.Fatalf("threads: %+v", th.Threads)
	}
	boat := th.Threads[0]
	if boat.ThreadID != byMID["q@example.com"] || boat.Count != 2 || boat.Unread != 2 || boat.Subject != "Re: the boat" ||
		len(boat.IDs) != 2 || strings.Join(boat.People, ",") != "Bob" || th.Threads[1].Count != 1 {
		t.Fatalf("threads: %+v", th.Threads)
	}
	stdout.Reset()
	if code := cli.List([]string{"--config", path, "--threads"}, &stdout, &stderr); code != launch.ExitOK || !strings.Contains(stdout.String(), "Re: the boat") {
		t.Fatalf("list --threads as text: exit %d\n%s", code, stdout.String())
	}

	// [ui] thread_by_subject = true joins Eve's to Bob's by its subject
	// (the store regroups once); off again, they part.
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{true, false} {
		if err := os.WriteFile(path, fmt.Appendf(nil, "%s\n[ui]\nthread_by_subject = %v\n", src, on), 0o600); err != nil {
			t.Fatal(err)
		}
		list, code, _ := facetest.ListJSON(t, "--config", path)
		ids := map[string]string{}
		for _, m := range list.Messages {
			ids[m.MessageID] = m.ThreadID
		}
		if joined := ids["x@example.com"] == ids["q@example.com"]; code != launch.ExitOK || joined != on || ids["q@example.com"] != ids["t@example.com"] {
			t.Fatalf("thread_by_subject = %v: exit %d, thread ids %v", on, code, ids)
		}
	}
}
