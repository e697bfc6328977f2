package tui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/textsafe"
)

// notifier runs notify_cmd when new unread mail arrives: the program and
// its arguments from the config (no shell), then the account, the sender
// and the subject, each one sanitised line. A burst is one run: at most
// one per window, for the newest message, its subject saying how
// many more came with it.
type notifier struct {
	argv    []string
	window  time.Duration
	told    map[model.MessageID]bool // fresh rows already notified (only those still fresh)
	last    time.Time                // the last run
	pending []model.Message          // arrived since, waiting for the window
	waiting bool                     // a flush is scheduled
}

// defaultNotifyWindow spaces runs out; notifyTimeout kills a command that
// hangs.
const (
	defaultNotifyWindow = 5 * time.Second
	notifyTimeout       = 10 * time.Second
)

// notifyFlushMsg runs what a window held back.
type notifyFlushMsg struct{}

// notifiedMsg is a run's end; a failure is said on the status line.
type notifiedMsg struct{ err error }

// arrived takes the fresh rows of a rebuild and returns the command that
// notifies of the new ones, now or at the end of the window.
func (n notifier) arrived(ctx context.Context, rows []model.Row, now time.Time) (notifier, tea.Cmd) {
	if len(n.argv) == 0 {
		return n, nil
	}
	// A row stops being fresh for good once read or gone, so only the
	// fresh ones need remembering: the set stays as small as the list.
	told := map[model.MessageID]bool{}
	for _, r := range rows {
		if r.Fresh && !r.Seen {
			if !n.told[r.ID] {
				n.pending = append(n.pending, r.Message)
			}
			told[r.ID] = true
		}
	}
	n.told = told
	switch {
	case len(n.pending) == 0 || n.waiting:
		return n, nil
	case now.Sub(n.last) >= n.window:
		return n.flush(ctx, now)
	}
	n.waiting = true
	return n, tea.Tick(n.window-now.Sub(n.last), func(time.Time) tea.Msg { return notifyFlushMsg{} })
}

// flush runs the command for what is pending.
func (n notifier) flush(ctx context.Context, now time.Time) (notifier, tea.Cmd) {
	n.waiting = false
	if len(n.pending) == 0 {
		return n, nil
	}
	newest := n.pending[0]
	for _, m := range n.pending[1:] {
		if m.Date.After(newest.Date) {
			newest = m
		}
	}
	subject := newest.Subject
	if more := len(n.pending) - 1; more > 0 {
		subject = fmt.Sprintf("%s (and %d more)", subject, more)
	}
	args := append(append([]string{}, n.argv[1:]...), notifyArg(newest.ID.Account), notifyArg(newest.From.Display()), notifyArg(subject))
	n.pending, n.last = nil, now
	return n, runNotify(ctx, n.argv[0], args)
}

// notifyArg is one line of mail text made safe as an argument: no escape
// sequence or control character, not too long, and never read as an
// option (mail text is not trusted).
func notifyArg(s string) string {
	s = textsafe.Fit(textsafe.Line(s), 200)
	s = strings.TrimRight(s, " ")
	if strings.HasPrefix(s, "-") {
		s = " " + s
	}
	return s
}

// notifyEnv is what a desktop notifier needs to reach the session, and no
// more: never the parent's whole environment (it may hold a secret).
var notifyEnv = []string{"PATH", "HOME", "LANG", "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"}

func runNotify(ctx context.Context, prog string, args []string) tea.Cmd {
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, notifyTimeout)
		defer cancel()
		cmd := exec.CommandContext(cctx, prog, args...)
		cmd.Env = []string{}
		for _, k := range notifyEnv {
			if v, ok := os.LookupEnv(k); ok {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
		}
		cmd.WaitDelay = time.Second
		if err := cmd.Run(); err != nil {
			return notifiedMsg{err: fmt.Errorf("notify_cmd %s: %w", prog, err)}
		}
		return notifiedMsg{}
	}
}
