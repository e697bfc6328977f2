package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/accounts/procgroup"
)

// notifyEnv is what a desktop notifier needs to reach the session, and no
// more: never the parent's whole environment, which may hold a password
// (password_env) or a token.
var notifyEnv = []string{"PATH", "HOME", "LANG", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"}

// notifyStderrMax bounds what is kept of a run's stderr.
const notifyStderrMax = 4 << 10

// runNotify runs one notification, in a process group of its own: on
// timeout (or when the UI ends) the whole group is killed, so a script's
// background job does not outlive it. The command only reads its
// arguments, never the model.
func runNotify(ctx context.Context, prog string, args []string, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		cmd := exec.CommandContext(cctx, prog, args...)
		cmd.Env = []string{}
		for _, k := range notifyEnv {
			if v, ok := os.LookupEnv(k); ok {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
		}
		procgroup.KillOnCancel(cmd)
		stderr := accounts.NewTail(notifyStderrMax)
		cmd.Stderr = stderr
		// A job the notifier left behind may hold stderr open after
		// it exits: the run still ends, a second later.
		cmd.WaitDelay = time.Second
		err := cmd.Run()
		switch {
		case err == nil || errors.Is(err, exec.ErrWaitDelay):
			return RanMsg{}
		case errors.Is(cctx.Err(), context.DeadlineExceeded):
			err = fmt.Errorf("timed out after %s, its process group killed: %w", timeout, err)
		}
		return RanMsg{Err: err, stderr: stderr.String()}
	}
}
