package compose

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/outbox"
	"unibox/model/textsafe"
	"unibox/ui/tui/screen"
)

// soonWindow: a message due within it counts as counting down when the
// person quits (q asks); one further away, or waiting on a dead server,
// waits for the next start without a question, or every quit would ask.
const soonWindow = time.Minute

// sendNowBound is how long "y send now and quit" waits for the outcome
// before it quits anyway, saying the message is still in the outbox.
const sendNowBound = 30 * time.Second

// Soon are the messages in the outbox that go within the next minute on
// their own time (counting down send_delay, never yet tried): quitting
// now would hold them until the next start, which may be days away.
func (c Composer) Soon(now time.Time) []outbox.Entry {
	var out []outbox.Entry
	for _, e := range c.entries {
		if e.Err == nil && e.State == outbox.StateQueued && e.Attempts == 0 && e.SendAt.Sub(now) < soonWindow {
			out = append(out, e)
		}
	}
	return out
}

// QuitBox is q while mail counts down: `y` sends it now and quits once
// its outcome is known (at most 30 s), q quits and leaves it in the
// outbox for the next start, esc stays.
type QuitBox struct {
	e       *screen.Env
	soon    []outbox.Entry
	sending bool // y: waiting for the outcome
}

// NewQuit asks about soon before quitting.
func NewQuit(e *screen.Env, soon []outbox.Entry) QuitBox { return QuitBox{e: e, soon: soon} }

// FarewellMsg is what the UI says as it ends, on the terminal it gives
// back: what became of the mail that was counting down.
type FarewellMsg struct{ Text string }

// SentNowMsg is the outcome of "send now", or what still waits.
type SentNowMsg struct{ text string }

func (m SentNowMsg) AccountIndex() int { return screen.NoAccount }

// Update takes y, q and esc, and the outcome of y.
func (b QuitBox) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	k := b.e.Keys
	switch msg := msg.(type) {
	case SentNowMsg:
		return screen.Tell(b, FarewellMsg{Text: msg.text}), tea.Quit
	case tea.KeyMsg:
		if b.sending {
			return b, nil // the outcome comes, or the bound ends it
		}
		switch {
		case key.Matches(msg, k.Send):
			b.sending = true
			return b, sendNowCmd(b.e.Opts.Mailroom, b.soon, b.e.Opts.Now)
		case key.Matches(msg, k.Quit):
			return screen.Tell(b, FarewellMsg{Text: waiting(len(b.soon)) + ": it goes at the next start, or with `unibox sync`"}), tea.Quit
		case key.Matches(msg, k.Back):
			return nil, nil
		}
	}
	return b, nil
}

// View is the question, or the wait for the outcome.
func (b QuitBox) View(width, height int) string {
	line := b.question()
	if b.sending {
		line = "sending " + messages(len(b.soon)) + " now… (then quitting; at most 30s)"
	}
	return screen.FitLines(textsafe.Fit(line, width), height)
}

// question is "1 message sending in 8s: y send now and quit · q quit, it
// waits in the outbox · esc stay".
func (b QuitBox) question() string {
	k := b.e.Keys
	first := b.soon[0].SendAt
	for _, e := range b.soon {
		if e.SendAt.Before(first) {
			first = e.SendAt
		}
	}
	when := "now"
	if left := first.Sub(b.e.Opts.Now()).Round(time.Second); left > 0 {
		when = "in " + left.String()
	}
	return fmt.Sprintf("%s sending %s: %s send now and quit · %s quit, it waits in the outbox · %s stay",
		messages(len(b.soon)), when, screen.Hint(k.Send), screen.Hint(k.Quit), screen.Hint(k.Back))
}

// Header names the question.
func (b QuitBox) Header() string { return "quit? mail is about to go" }

// ShortHelp and FullHelp are the question's keys.
func (b QuitBox) ShortHelp() []key.Binding {
	k := b.e.Keys
	return []key.Binding{screen.As(k.Send, "send now and quit"), screen.As(k.Quit, "quit, it waits"), screen.As(k.Back, "stay")}
}
func (b QuitBox) FullHelp() [][]key.Binding { return [][]key.Binding{b.ShortHelp()} }

// sendNowCmd brings the entries' time forward and wakes the runner, then
// waits for their outcome, at most sendNowBound: sent, refused, unknown,
// or still in the outbox.
func sendNowCmd(room *screen.Mailroom, soon []outbox.Entry, now func() time.Time) tea.Cmd {
	return func() tea.Msg {
		for _, e := range soon {
			_ = room.Box.SendNow(e.ID, now()) // claimed: its sender has it already
		}
		room.Runner.Kick()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		bound := time.After(sendNowBound)
		for {
			text, settled := outcome(room.Box, soon)
			if settled {
				return SentNowMsg{text: text}
			}
			select {
			case <-bound:
				return SentNowMsg{text: text}
			case <-t.C:
			}
		}
	}
}

// outcome says what became of soon as the outbox has them now; settled:
// none is on its way any more.
func outcome(box *outbox.Box, soon []outbox.Entry) (string, bool) {
	entries, _ := box.Entries()
	state := map[string]outbox.Entry{}
	for _, e := range entries {
		state[e.ID] = e
	}
	var sent, queued, unknown int
	var refused []string
	for _, s := range soon {
		e, there := state[s.ID]
		switch {
		case !there, e.State == outbox.StateSent, e.State == outbox.StateSaved, e.State == outbox.StateDone:
			sent++
		case e.State == outbox.StateFailed:
			refused = append(refused, e.LastError)
		case e.State == outbox.StateUnknown, e.State == outbox.StateSending:
			unknown++
		default:
			queued++
		}
	}
	var parts []string
	if sent > 0 {
		parts = append(parts, fmt.Sprintf("%s sent", messages(sent)))
	}
	if len(refused) > 0 {
		parts = append(parts, fmt.Sprintf("%s not sent: %s", messages(len(refused)), strings.Join(refused, "; ")))
	}
	if unknown > 0 {
		parts = append(parts, fmt.Sprintf("%s may have been sent: check Sent", messages(unknown)))
	}
	if queued > 0 {
		parts = append(parts, waiting(queued)+": it goes at the next start, or with `unibox sync`")
	}
	return strings.Join(parts, "; "), settled(entries, soon)
}

// settled: none of soon is still queued or being sent (one marked
// unknown is settled: a person decides).
func settled(entries []outbox.Entry, soon []outbox.Entry) bool {
	ids := map[string]bool{}
	for _, s := range soon {
		ids[s.ID] = true
	}
	for _, e := range entries {
		if ids[e.ID] && (e.State == outbox.StateQueued || e.State == outbox.StateSending) {
			return false
		}
	}
	return true
}

// messages is "1 message" or "n messages".
func messages(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}

// waiting is "1 message waits in the outbox" or "n messages wait ...".
func waiting(n int) string {
	if n == 1 {
		return "1 message waits in the outbox"
	}
	return fmt.Sprintf("%d messages wait in the outbox", n)
}
