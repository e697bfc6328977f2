//go:build !unix

package notify

import "os/exec"

// killGroupOnCancel kills the notifier itself: process groups are Unix.
func killGroupOnCancel(*exec.Cmd) {}
