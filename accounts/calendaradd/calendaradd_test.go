package calendaradd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The program gets the event on stdin and only the environment it
// needs: a secret in the parent's environment does not reach it; a
// failure says how, with its stderr.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "got")
	t.Setenv("UNIBOX_TEST_SECRET", "hunter2")
	script := filepath.Join(dir, "import")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat > \""+got+"\"\nenv >> \""+got+"\"\n[ \"$1\" = fail ] && { echo 'no such calendar' >&2; exit 3; }\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	event := []byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
	if err := Run(context.Background(), []string{script, "--batch"}, event); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(got)
	if !strings.HasPrefix(string(b), string(event)) || strings.Contains(string(b), "hunter2") {
		t.Fatalf("the program got:\n%s", b)
	}
	err := Run(context.Background(), []string{script, "fail"}, event)
	if err == nil || !strings.Contains(err.Error(), "exit status 3: no such calendar") {
		t.Fatalf("a failing program: %v", err)
	}
	if err := Run(context.Background(), []string{filepath.Join(dir, "missing")}, event); err == nil {
		t.Fatal("a missing program ran")
	}
}
