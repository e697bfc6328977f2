package proposing

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"unibox/accounts/config"
	"unibox/accounts/rulebook"
	"unibox/accounts/rulesfile"
	"unibox/model/rules"
)

func desk(t *testing.T) (*Desk, string) {
	t.Helper()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfgPath, []byte("[[account]]\nname = \"Work\"\nhost = \"h\"\nusername = \"u\"\npassword_env = \"P\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	book := rulebook.New(filepath.Join(dir, "data", "rules.db"))
	t.Cleanup(func() { book.Close() })
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	w := config.WatchRules(cfg)
	return &Desk{Book: book, Config: cfg, Current: w.Current, PerHour: 20, Now: func() time.Time { return now }}, cfg.RulesPath()
}

// Accepted, a proposal is appended to the rules file (made 0600) under a
// comment naming it an agent's, with its reason on one line; the rules
// in force then hold it, as written; a value with quotes and brackets
// stays a value. Answered once: a second accept or a reject finds nothing.
func TestAcceptWritesTheRule(t *testing.T) {
	d, path := desk(t)
	ctx := context.Background()
	if _, err := d.Propose(ctx, Input{Name: `news "x"] [[rule]]`, Subject: `*"]\n[[rule]]*`, Action: "archive", Reason: "they pile up"}); err != nil {
		t.Fatal(err)
	}
	shown, err := d.Pending(ctx)
	if err != nil || len(shown) != 1 || shown[0].Problem != "" {
		t.Fatalf("pending %+v, %v", shown, err)
	}
	if err := d.Accept(ctx, shown[0]); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "# Proposed by an agent on 2026-12-07 10:00 UTC, accepted on 2026-12-07 10:00 UTC (proposal 1).\n# Its reason: they pile up\n[[rule]]") {
		t.Fatalf("the file:\n%s", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("made %v", fi.Mode())
	}
	list, err := d.Current()
	if err != nil || len(list) != 1 || list[0].Name != `news "x"] [[rule]]` || list[0].Action != rules.Archive || list[0].Match.Subject.Raw != `*"]\n[[rule]]*` {
		t.Fatalf("rules in force %+v, %v", list, err)
	}
	if err := d.Accept(ctx, shown[0]); err == nil {
		t.Fatal("accepted twice")
	}
	if err := d.Reject(ctx, shown[0].ID); !errors.Is(err, rulebook.ErrNoProposal) {
		t.Fatalf("rejected after accepting: %v", err)
	}
}

// The file changed after it was shown: nothing is written, the proposal
// still waits. A proposal whose name a rule took since cannot be
// accepted, and says why.
func TestAcceptOverAChangedFile(t *testing.T) {
	d, path := desk(t)
	ctx := context.Background()
	for _, name := range []string{"one", "two"} {
		if _, err := d.Propose(ctx, Input{Name: name, From: "*@x.example", Action: "read", Reason: "r"}); err != nil {
			t.Fatal(err)
		}
	}
	shown, _ := d.Pending(ctx)
	if err := os.WriteFile(path, []byte("[[rule]]\nname = \"two\"\nmatch = { from = \"a@b\" }\naction = \"flag\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.Accept(ctx, shown[0]); !errors.Is(err, rulesfile.ErrChanged) {
		t.Fatalf("over a changed file: %v", err)
	}
	if n, _ := d.Book.PendingProposals(ctx); n != 2 {
		t.Fatalf("%d pending after a refused accept", n)
	}
	shown, _ = d.Pending(ctx)
	if shown[1].Problem == "" || !strings.Contains(shown[1].Problem, `"two" is already the name`) {
		t.Fatalf("a taken name: %+v", shown[1])
	}
	if err := d.Accept(ctx, shown[1]); err == nil {
		t.Fatal("accepted a proposal whose name is taken")
	}
	if err := d.Accept(ctx, shown[0]); err != nil {
		t.Fatal(err)
	}
	if list, err := d.Current(); err != nil || len(list) != 2 {
		t.Fatalf("rules %+v, %v", list, err)
	}
}

// max_rule_proposals_per_hour = 0: agents may not propose at all.
func TestProposalsOff(t *testing.T) {
	d, _ := desk(t)
	d.PerHour = 0
	if _, err := d.Propose(context.Background(), Input{Name: "a", From: "*@x.example", Action: "read", Reason: "r"}); !errors.Is(err, ErrRefused) {
		t.Fatalf("proposals off: %v", err)
	}
}
