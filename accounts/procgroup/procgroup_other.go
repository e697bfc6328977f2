//go:build !unix

// Package procgroup: process groups are Unix; elsewhere the command
// alone is killed, as exec.CommandContext does.
package procgroup

import "os/exec"

// KillOnCancel leaves cmd as it is.
func KillOnCancel(*exec.Cmd) {}
