// Package binarytest holds the tests of unibox as users run it: the real
// binary (built once from main.go, see buildUnibox) under a pseudo-terminal
// or in tmux (drawing, locales, quitting, the terminal title, a silent
// server, wake from SIGSTOP), and the tests that run every face at once
// against one config (secrets kept off every output, a full disk, a
// history folder that cannot be written, the goldens of every face's
// JSON in testdata). A face's own tests live in its package (ui/cli,
// ui/agent, ui/launch); this package has no code of its own.
package binarytest
