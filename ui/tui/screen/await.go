package screen

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// Await delivers msg when ch fires, or nothing once ctx ends. Pushes
// (the inbox's and a followed folder's) are channels that fire again
// and again; the receiver re-arms Await after every delivery, so one
// goroutine waits per channel and none outlives the program.
func Await(ctx context.Context, ch <-chan struct{}, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ch:
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}

// AwaitMsg delivers the message a command's own goroutine sends on ch
// (buffered, so that it never blocks once the UI has ended).
func AwaitMsg(ctx context.Context, ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-ch:
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}
