package history

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// A reader (`unibox status --history`) while another process appends and
// rotates as fast as it can: every read sees an unbroken run of the
// writer's lines, ending at its newest. Reading the rotated copy and then
// the file without the writer's lock, a rotation in between hid a whole
// file of events (issue 24 saw 34 reads in 3000 miss some).
func TestReadWhileRotating(t *testing.T) {
	dir := t.TempDir()
	exe, _ := os.Executable()
	const lines = 8000 // ~200 bytes each, 10 to a 2 KiB file: 800 rotations
	cmd := exec.Command(exe)
	cmd.Env = []string{"UNIBOX_HISTORY_WRITER=" + dir, "UNIBOX_HISTORY_LINES=" + strconv.Itoa(lines), "UNIBOX_HISTORY_MAX=2048"}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	f, _ := NewFile(dir, "Work", 2048)
	reads, torn, last := 0, 0, -1
	for done := false; !done; {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("writer: %v", err)
			}
			done = true // one more read, of the finished files
		default:
		}
		events, err := f.Read()
		if err != nil {
			t.Fatal(err)
		}
		reads++
		seq := make([]int, len(events))
		for i, e := range events {
			var pid int
			if _, err := fmt.Sscanf(e.Text, "line %d of %d:", &seq[i], &pid); err != nil {
				t.Fatalf("event %q: %v", e.Text, err)
			}
		}
		for i := 1; i < len(seq); i++ {
			if seq[i] != seq[i-1]+1 {
				torn++
				if torn <= 3 {
					t.Errorf("read %d: line %d follows line %d", reads, seq[i], seq[i-1])
				}
				break
			}
		}
		if len(seq) > 0 {
			if seq[len(seq)-1] < last {
				t.Errorf("read %d ends at line %d, an earlier read at %d", reads, seq[len(seq)-1], last)
			}
			last = seq[len(seq)-1]
		}
	}
	t.Logf("%d reads while %d lines were written, %d of them missed lines", reads, lines, torn)
	if torn > 0 {
		t.Fatalf("%d of %d reads missed lines", torn, reads)
	}
	if last != lines-1 {
		t.Fatalf("the last read ends at line %d, want %d", last, lines-1)
	}
}
