package details

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts"
	"unibox/accounts/history"
	"unibox/model/textsafe"
	"unibox/ui/tui/notify"
	"unibox/ui/tui/screen"
)

// Box is the account details view: its account's pane (health,
// last failure, live), and its stderr tail and history, read on events,
// not once per frame.
type Box struct {
	styles  screen.Styles
	keys    screen.KeyMap
	now     func() time.Time
	failure string // notify_cmd's last failure ("" after a success), kept by notifyFailureMsg
	account int
	pane    func() Pane // the account's pane as it is now
	stderr  string
	history []history.Event // newest last
}

// Pane is what the details show of an account's pane: the
// account, its health and its last failure.
type Pane struct {
	Account screen.Account
	Health  accounts.Health
	LastErr string
}

// ChangedMsg: Account's health changed; open details of it read
// it again.
type ChangedMsg struct{ Account int }

// New is the details of account i, whose pane p reads as it is.
func New(e *screen.Env, i int, p func() Pane, notifyFailure string) Box {
	return Box{styles: e.Styles, keys: e.Keys, now: e.Opts.Now, failure: notifyFailure, account: i, pane: p}.show()
}

// Update reads the account again on each of its events, and takes the
// details' keys: back (or i again) ends it; refresh reads it again and
// tells the root to refresh the account.
func (d Box) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case notify.FailureMsg:
		d.failure = msg.Text
	case ChangedMsg:
		if msg.Account == d.account {
			return d.show(), nil // read once per event, not once per frame
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, d.keys.Back, d.keys.Quit, d.keys.Details):
			return nil, nil
		case key.Matches(msg, d.keys.Refresh):
			return screen.Tell(d.show(), RefreshMsg{Account: d.account}), nil
		}
	}
	return d, nil
}

// Header names the view and its keys.
func (d Box) Header() string {
	return fmt.Sprintf("account details · %s refresh · %s back", screen.Hint(d.keys.Refresh), screen.Hint(d.keys.Back))
}

// ShortHelp and FullHelp are the details' keys, for the help.
func (d Box) ShortHelp() []key.Binding {
	return []key.Binding{d.keys.Back, d.keys.Refresh, d.keys.Help}
}
func (d Box) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// detailsHistory is how many of an account's events the details show.
const detailsHistory = 8

// show reads the pane's stderr tail and history for the details: on
// opening, on a refresh and on each of its events, never once per frame.
func (d Box) show() Box {
	acct := d.pane().Account
	d.stderr = acct.Stderr()
	d.history = screen.HistoryOf(acct, detailsHistory)
	return d
}

// View is the account detail view, exactly height lines: the one place a
// user learns why an account is down (state, since, last error and class,
// counts, stderr), and why notify_cmd failed (its error and stderr tail,
// already sanitised).
func (d Box) View(width, height int) string {
	return screen.FitLines(d.body(width, height), height)
}

func (d Box) body(width, height int) string {
	s, k, now, notifyFailure := d.styles, d.keys, d.now(), d.failure
	p := d.pane()
	name, h, stderr, lastErr := p.Account.Name(), p.Health, d.stderr, p.LastErr
	var b strings.Builder
	line := func(label, value string) {
		b.WriteString(s.Label.Render(fmt.Sprintf("%-13s", label)))
		b.WriteString(textsafe.Fit(textsafe.Line(value), max(10, width-13)))
		b.WriteByte('\n')
	}
	b.WriteString(s.Title.Render("Account " + textsafe.Line(name)))
	b.WriteString("\n\n")
	line("State:", h.Badge(now))
	line("Updates:", h.Updates())
	line("Since:", h.Since.In(now.Location()).Format("15:04:05")+" ("+relSince(now.Sub(h.Since))+" ago)")
	if h.CoolingDown() {
		line("Next probe:", "in "+accounts.Countdown(h.CooldownUntil.Sub(now))+" (press "+screen.Hint(k.Refresh)+" to try now)")
	}
	if h.NoSecret() {
		line("Next probe:", "none until you press "+screen.Hint(k.Refresh)+" (the password or token is fetched again)")
	}
	if h.AuthFailed() {
		line("Next probe:", "none until you press "+screen.Hint(k.Refresh)+" (credentials were refused)")
	}
	errText := h.LastError
	if errText == "" {
		errText = "none"
	}
	// The error is the one thing here worth reading in full: wrap it.
	for i, part := range strings.Split(screen.Wrap(textsafe.Line(errText), max(10, width-13)), "\n") {
		label := "Last error:"
		if i > 0 {
			label = ""
		}
		line(label, part)
	}
	line("Error class:", h.LastClass)
	if lastErr != "" {
		line("Last failure:", lastErr)
	}
	line("Connects:", fmt.Sprintf("%d (children started: %d, failures in a row: %d)", h.Connects, h.Dials, h.Attempt))
	line("Generation:", fmt.Sprint(h.Generation))
	// The account works without them, but the user should know: its mail
	// is not remembered, or what it goes through is not kept.
	if h.Store != "" {
		line("Warning:", "store: "+h.Store)
	}
	if h.History != "" {
		line("Warning:", "history: "+h.History)
	}
	for _, n := range h.Notes {
		line("Note:", n)
	}
	if h.Latency > 0 {
		line("Latency:", h.Latency.Round(time.Millisecond).String())
	}
	if len(d.history) > 0 {
		b.WriteString("\n")
		b.WriteString(s.Label.Render("History:"))
		b.WriteByte('\n')
		for _, e := range d.history {
			b.WriteString(textsafe.Fit(textsafe.Line(e.Time.In(now.Location()).Format("15:04:05")+" "+e.Kind+" "+e.Text), width))
			b.WriteByte('\n')
		}
	}
	if notifyFailure != "" {
		b.WriteString("\n")
		for _, l := range strings.Split(notifyFailure, "\n") {
			b.WriteString(textsafe.Fit(l, width))
			b.WriteByte('\n')
		}
	}
	b.WriteString("\n")
	b.WriteString(s.Label.Render("Provider stderr (tail):"))
	b.WriteByte('\n')
	used := strings.Count(b.String(), "\n")
	tail := strings.Split(strings.TrimRight(textsafe.Block(stderr), "\n"), "\n")
	room := max(1, height-used)
	if len(tail) > room {
		tail = tail[len(tail)-room:]
	}
	for _, l := range tail {
		b.WriteString(textsafe.Fit(l, width))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

func relSince(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d/time.Minute)%60)
}

// RefreshMsg asks the root for an account's refresh (the details' r).
type RefreshMsg struct{ Account int }
