//go:build unix

// Package procgroup runs a person's command (a password command, a
// notifier, a calendar's import) as the leader of a process group of its
// own, and kills the whole group when its context ends: a script's
// `sleep 300 &`, or the gpg a shell started, dies with it instead of
// living on under PID 1 and holding its output pipe open.
package procgroup

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// KillOnCancel makes cmd a group leader whose group is killed (SIGKILL)
// when cmd's context is done. Call it before cmd starts.
func KillOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); !errors.Is(err, syscall.ESRCH) {
			return err
		}
		return os.ErrProcessDone
	}
}
