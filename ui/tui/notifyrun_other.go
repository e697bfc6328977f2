//go:build !unix

package tui

import "os/exec"

// killGroupOnCancel kills the notifier itself: process groups are Unix.
func killGroupOnCancel(*exec.Cmd) {}
