//go:build unix

package config

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel puts the shell in its own process group and kills the
// whole group on cancel, so `gpg` or `pass` started by the shell die with
// it instead of lingering (and holding its output pipe open).
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
