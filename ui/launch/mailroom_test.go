package launch_test

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"unibox/accounts"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
	"unibox/ui/launch"
)

// One Mailroom per face, opened one way: the agent face's (OpenDrafting)
// has drafting and no Runner, so it has nothing that sends; a sending
// face's (OpenMailroom) shares the same outbox and drafts and carries out
// the entries of the accounts it was given, and only theirs.
func TestMailroomPerFace(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	var stderr bytes.Buffer
	env, err := launch.Open("", true, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	work := env.Set.Find("Work")

	agents, err := env.OpenDrafting()
	if err != nil {
		t.Fatal(err)
	}
	if agents.Runner != nil || agents.Drafting == nil {
		t.Fatalf("the agent face's room: runner %v, drafting %v; want drafting only", agents.Runner, agents.Drafting)
	}
	sends, err := env.OpenMailroom([]*accounts.Account{work}, dispatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sends.Runner == nil || sends.Box != agents.Box || sends.Drafting.Box() != agents.Box {
		t.Fatalf("the sending room: runner %v, box %p (the agents' %p)", sends.Runner, sends.Box, agents.Box)
	}

	for _, tc := range []struct {
		account string
		out     dispatch.Outcome
	}{
		{"Work", dispatch.OutcomeSent},
		{"Personal", dispatch.OutcomeFailed}, // not an account this room sends for
	} {
		from := map[string]string{"Work": "work@demo.unibox", "Personal": "personal@demo.unibox"}[tc.account]
		p, err := compose.Draft{From: model.Address{Address: from}, To: []model.Address{{Address: "work@demo.unibox"}}, Subject: "to " + tc.account, Body: "x"}.Prepare(time.Now())
		if err != nil {
			t.Fatal(err)
		}
		e, err := sends.Box.Enqueue(outbox.Entry{Account: tc.account, MessageID: p.MessageID, From: p.From, Rcpt: p.Rcpt, SendAt: time.Now()}, p.Wire, p.Saved)
		if err != nil {
			t.Fatal(err)
		}
		if rep, err := sends.Runner.Deliver(t.Context(), e.ID); rep.Outcome != tc.out {
			t.Errorf("%s's entry: %s (%v), want %s", tc.account, rep.Outcome, err, tc.out)
		}
	}
}
