//go:build unix

package notify

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// killGroupOnCancel starts the notifier as the leader of a process group
// of its own and kills the whole group on cancel: a script's `sleep 300 &`
// dies with it instead of living on under PID 1.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); !errors.Is(err, syscall.ESRCH) {
			return err
		}
		return os.ErrProcessDone
	}
}
