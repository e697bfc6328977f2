package snooze

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// claimerEnv makes the test binary a claimer process: it opens the
// schedule, claims the one due entry of the test account, says so on
// stdout and waits for stdin to close (then exits without settling: a
// process that died mid-wake).
const claimerEnv = "UNIBOX_SNOOZE_CLAIMER"

func TestMain(m *testing.M) {
	if path := os.Getenv(claimerEnv); path != "" {
		os.Exit(claimer(path))
	}
	goleak.VerifyTestMain(m)
}

func claimer(path string) int {
	s, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	due, err := s.Due(context.Background(), testKey, time.Now())
	if err != nil || len(due) != 1 {
		fmt.Fprintln(os.Stderr, "due:", len(due), err)
		return 1
	}
	if _, err := s.Claim(context.Background(), due[0], Self(time.Now())); err != nil {
		fmt.Println("refused:", err)
		return 0
	}
	fmt.Println("claimed")
	bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

// startClaimer runs a claimer on path and waits for its first line.
func startClaimer(t *testing.T, path string) (*exec.Cmd, string, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), claimerEnv+"="+path)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Wait()
		t.Fatalf("claimer said nothing: %v", err)
	}
	stop := func() { in.Close(); cmd.Wait() }
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	return cmd, line, stop
}

var testKey = Key{Name: "Work", Host: "127.0.0.1", User: "sam"}

func openTemp(t *testing.T) (*Schedule, string) {
	t.Helper()
	path := t.TempDir() + "/unibox/snooze.db"
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func itoa(n int) string { return strconv.Itoa(n) }
