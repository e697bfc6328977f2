//go:build !unix

package config

import "os/exec"

// killGroupOnCancel has no process groups to use here; exec's default
// cancel kills the shell, and WaitDelay bounds the wait for its children.
func killGroupOnCancel(*exec.Cmd) {}
