// Package teatest drives the whole TUI headlessly with
// github.com/charmbracelet/x/exp/teatest and compares screens to goldens.
package teatest
