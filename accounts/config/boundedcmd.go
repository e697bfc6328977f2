package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"unibox/accounts/procgroup"
)

// boundedCmd is a command unibox runs for the person (signature_cmd,
// address_book_cmd): no shell and no terminal (stdin the null device),
// only the environment variables env names, its output kept up to
// maxOut bytes, killed with its process group after timeout.
type boundedCmd struct {
	env     []string
	timeout time.Duration
	maxOut  int
	grace   time.Duration // how long a child holding the pipes open after exit may
}

// run runs argv and returns what it printed. A failure says how it ended
// with the last line of its stderr; an exit status that is not 0 comes
// back as its *exec.ExitError (wrapped), so a caller may read it as an
// answer (address books exit 1 when they found nothing).
func (b boundedCmd) run(ctx context.Context, argv []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	start := time.Now()
	stdout := headBuffer{max: b.maxOut}
	stderr := tailBuffer{max: stderrLimit}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = []string{}
	for _, k := range b.env {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = b.grace
	procgroup.KillOnCancel(cmd)
	err := cmd.Run()
	hint := lastLine(stderr.b, nil)
	var exit *exec.ExitError
	switch {
	case err == nil || errors.Is(err, exec.ErrWaitDelay):
		return stdout.b, nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("killed after %s without finishing%s", time.Since(start).Round(10*time.Millisecond), hint)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("cancelled%s: %w", hint, ctx.Err())
	case errors.As(err, &exit):
		return stdout.b, exitError{exit: exit, hint: hint}
	}
	return nil, fmt.Errorf("cannot run: %w", err)
}

// exitError is a command that ran and ended with a status other than 0.
type exitError struct {
	exit *exec.ExitError
	hint string
}

func (e exitError) Error() string { return fmt.Sprintf("failed (%s)%s", e.exit.Error(), e.hint) }
func (e exitError) Unwrap() error { return e.exit }
