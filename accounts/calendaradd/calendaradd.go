// Package calendaradd hands an invitation the person accepted to their
// calendar program ([calendar] add_cmd, issue 41): the event goes as an
// .ics on the program's stdin. The program is the person's, but what it
// is given came from a stranger's mail: it gets the event stripped by
// model/invite.Export, an explicit minimal environment (never a password
// or token the parent holds), a process group killed on timeout, and
// nothing else.
package calendaradd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"unibox/accounts/procgroup"
	"unibox/conn"
	"unibox/model/textsafe"
)

// Timeout bounds one run: an import that hangs is killed, with its group.
const Timeout = 30 * time.Second

// env is what a calendar program needs to find its configuration and
// files (khal reads $XDG_CONFIG_HOME/khal/config), and no more.
var env = []string{"PATH", "HOME", "LANG", "LC_ALL", "TZ", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}

// stderrMax bounds what of the program's stderr (its end) an error quotes.
const stderrMax = 2 << 10

// Run runs argv with event on its stdin; its error says how it failed,
// with the end of what it wrote to stderr.
func Run(ctx context.Context, argv []string, event []byte) error {
	if len(argv) == 0 {
		return errors.New("add_cmd names no program")
	}
	cctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	cmd.Env = []string{}
	for _, k := range env {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	procgroup.KillOnCancel(cmd)
	cmd.Stdin = bytes.NewReader(event)
	stderr := conn.NewTail(stderrMax) // its end says why it failed
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second // a job it left behind holding stderr open
	err := cmd.Run()
	switch {
	case err == nil:
		return nil
	case cctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("%s did not finish in %v: killed", argv[0], Timeout)
	}
	msg := strings.TrimSpace(textsafe.Line(stderr.String()))
	if msg != "" {
		return fmt.Errorf("%s: %w: %s", argv[0], err, msg)
	}
	return fmt.Errorf("%s: %w", argv[0], err)
}
