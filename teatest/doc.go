// Package teatest drives the whole TUI headlessly with
// github.com/charmbracelet/x/exp/teatest and compares screens to goldens.
// It is the home of the headless snapshot runs, and stays at the top of
// the module beside ui/ because it runs the TUI over everything below it
// (accounts, the store, the demo servers), not one face's internals; the
// tests of the real binary in a real terminal are in ui/binarytest.
package teatest
