package accounts

import (
	"errors"
	"strings"
	"testing"

	"unibox/accounts/config"
	"unibox/accounts/history"
	"unibox/accounts/store"
)

// A draft event is one line of the account's history file, however the
// subject an agent or a stranger chose was made: no line break, no
// escape, no bidi control, and cut short.
func TestDraftEventIsOneCleanLine(t *testing.T) {
	cfg := &config.Config{Accounts: []config.Account{{Name: "Work", Kind: "imap", Host: "127.0.0.1", Port: 1, Security: "none", Username: "sam"}}}
	cfg.Resilience.ProbeInterval = config.Duration{Duration: -1}
	dir := t.TempDir()
	set, err := Open(cfg, Options{Exe: testExe(t), ExeArgs: []string{}, ChildEnv: []string{}, History: Have(dir), Store: Off[*store.Store](errors.New("no store in this test"))})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	a := set.Accounts[0]
	a.DraftEvent("agent", "created", "\"Re: hi\nkind\": \"state\" \x1b[31m\u202eevil"+strings.Repeat("x", 1000))
	f, err := history.NewFile(dir, "Work", 0)
	if err != nil {
		t.Fatal(err)
	}
	es, err := f.Read()
	if err != nil {
		t.Fatal(err)
	}
	var got []history.Event
	for _, e := range es {
		if e.Kind == history.KindDraft {
			got = append(got, e)
		}
	}
	if len(got) != 1 {
		t.Fatalf("draft events %+v", got)
	}
	text := got[0].Text
	if !strings.HasPrefix(text, "agent created a draft: \"Re: hi kind\"") || strings.ContainsAny(text, "\n\r\x1b\u202e") || len(text) > 400 {
		t.Fatalf("event text %q", text)
	}
}
