package notify

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/model"
	"unibox/model/notifyargs"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// Notifier runs notify_cmd when new unread mail arrives: the program and
// its arguments from the config (no shell). With placeholders ({account},
// {from}, {subject}, {count}) each is filled in where it stands; without
// any, the account, the sender and the subject are appended (the first
// form, kept for existing configs). A burst is one run: at most one per
// window and never two at once, for the newest message. What arrives
// during a run waits for it, and becomes exactly one run after it.
type Notifier struct {
	ctx     context.Context  // the UI's lifetime: a run and its window end with it
	tell    func(...tea.Msg) // how it reports a run's end to the root (env.tell)
	argv    []string
	details string // the key of the details, which the status line points to
	window  time.Duration
	timeout time.Duration
	told    map[model.MessageID]bool // fresh rows already notified (only those still fresh)
	pending []model.Message          // arrived since, waiting for the window or the run
	shut    bool                     // the window of the last run is still open: no run before it ends
	running bool                     // a run has started and not ended
	// quiet says a rule with notify = false matched the message (nil:
	// none does): it is never notified.
	quiet func(model.Message) bool
}

// Quieting is n leaving out what quiet says (a rule's notify = false).
func (n Notifier) Quieting(quiet func(model.Message) bool) Notifier {
	n.quiet = quiet
	return n
}

// New is the notifier of the UI whose lifetime is ctx: argv is
// notify_cmd, tell how it reports a run's end, details the key of the
// details; window and timeout 0 take the defaults.
func New(ctx context.Context, tell func(...tea.Msg), argv []string, details string, window, timeout time.Duration) Notifier {
	if window <= 0 {
		window = DefaultWindow
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return Notifier{ctx: ctx, tell: tell, argv: argv, details: details, window: window, timeout: timeout}
}

// DefaultWindow spaces runs out; DefaultTimeout kills a
// command (its whole process group) that hangs.
const (
	DefaultWindow  = 5 * time.Second
	DefaultTimeout = 10 * time.Second
)

// notifyFlushMsg ends a run's window: what it held back may run.
type FlushMsg struct{}

// notifiedMsg is a run's end: its error and the tail of its stderr.
type RanMsg struct {
	Err    error
	stderr string
}

// Arrived takes the fresh rows of a rebuild and returns the command that
// notifies of the new ones: now, at the end of the window, or after the
// run in progress.
func (n Notifier) Arrived(rows []model.Row) (Notifier, tea.Cmd) {
	if len(n.argv) == 0 {
		return n, nil
	}
	// A row stops being fresh for good once read or gone, so only the
	// fresh ones need remembering: the set stays as small as the list.
	told := map[model.MessageID]bool{}
	for _, r := range rows {
		if r.Fresh && !r.Seen && r.Screened == model.ScreenNone { // what waits in the screener never notifies
			if !n.told[r.ID] && (n.quiet == nil || !n.quiet(r.Message)) {
				n.pending = append(n.pending, r.Message)
			}
			told[r.ID] = true
		}
	}
	n.told = told
	return n.Next()
}

// Update takes the notifier's own messages: a window's end and a run's.
// A run's end is told to the root: its failure for the details (empty
// after a success) and, when it failed, the status line's words.
func (n Notifier) Update(msg tea.Msg) (Notifier, tea.Cmd) {
	switch msg := msg.(type) {
	case FlushMsg:
		n.shut = false
	case RanMsg:
		n.running = false
		if msg.Err == nil {
			n.tell(FailureMsg{})
			break
		}
		failure, status := failureText(msg.Err, msg.stderr, n.details)
		n.tell(FailureMsg{Text: failure}, screen.NoteMsg{Text: status, Bad: true})
	}
	return n.Next()
}

// Next starts a run for what is pending if none is running and the last
// run's window has ended.
func (n Notifier) Next() (Notifier, tea.Cmd) {
	if len(n.pending) == 0 || n.shut || n.running {
		return n, nil
	}
	return n.start()
}

// start runs the command for everything pending, and opens its window: a
// timer, not a clock, so the window passes in real time even under the
// fixed clock of the golden tests (Options.Now is the one clock, for what
// the screen shows).
func (n Notifier) start() (Notifier, tea.Cmd) {
	newest := n.pending[0]
	for _, m := range n.pending[1:] {
		if m.Date.After(newest.Date) {
			newest = m
		}
	}
	v := notifyargs.Values{Account: notifyValue(newest.ID.Account), From: notifyValue(newest.From.Display()),
		Subject: notifyValue(newest.Subject), Count: len(n.pending)}
	n.pending, n.running, n.shut = nil, true, true
	return n, tea.Batch(runNotify(n.ctx, n.argv[0], notifyArgs(n.argv, v), n.timeout), windowEnd(n.ctx, n.window))
}

// windowEnd reports the end of a run's window, or nothing once the UI has
// ended (no timer outlives the UI).
func windowEnd(ctx context.Context, d time.Duration) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return FlushMsg{}
		case <-ctx.Done():
			return nil
		}
	}
}

// notifyArgs is the argument list of one run. The appended form says how
// many more came in the subject, as it always did; the placeholder form
// has {count} for that.
func notifyArgs(argv []string, v notifyargs.Values) []string {
	if notifyargs.Templated(argv) {
		return notifyargs.Expand(argv, v)
	}
	subject := v.Subject
	if more := v.Count - 1; more > 0 {
		subject = fmt.Sprintf("%s (and %d more)", subject, more)
	}
	args := append([]string{}, argv[1:]...)
	for _, s := range []string{v.Account, v.From, subject} {
		args = append(args, notifyargs.NotOption("", s))
	}
	return args
}

// notifyValue is one line of mail text made safe for an argument: no
// escape sequence or control character, not too long.
func notifyValue(s string) string {
	return strings.TrimRight(textsafe.Fit(textsafe.Line(s), 200), " ")
}

// notifyStderrLines is how much of a failed run's stderr is kept to show.
const notifyStderrLines = 5

// failureText is a failed run for the details view (its error, then the
// last lines of its stderr) and for the status line (the error and the
// last line), every line sanitised: the notifier's output is not trusted
// to be free of terminal escapes. detailsKey is the key that shows the
// details.
func failureText(err error, stderr, detailsKey string) (details, status string) {
	what := textsafe.Line(err.Error())
	lines := []string{"notify_cmd: last run failed: " + what}
	status = "notify_cmd: " + what
	tail := strings.Split(strings.TrimRight(textsafe.Block(stderr), "\n"), "\n")
	if len(tail) > notifyStderrLines {
		tail = tail[len(tail)-notifyStderrLines:]
	}
	last := ""
	for _, l := range tail {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, "  "+l)
			last = l
		}
	}
	if last != "" {
		status += ": " + last
	}
	return strings.Join(lines, "\n"), status + " (" + detailsKey + ": details)"
}

// notifyFailureMsg is notify_cmd's last run told by the notifier: why
// it failed, sanitised lines for the details; "" after a success.
type FailureMsg struct{ Text string }

func (m FlushMsg) AccountIndex() int { return screen.NoAccount }

func (m RanMsg) AccountIndex() int { return screen.NoAccount }
