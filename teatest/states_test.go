package teatest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"unibox/conn"
	"unibox/model"
	"unibox/ui/tui"
)

func msgs(acct string, n int, start time.Duration) []model.Message {
	senders := []model.Address{{Name: "Zoë Müller", Address: "zoe@example.com"}, {Name: "高橋 雅人", Address: "takahashi@example.com"}, {Name: "", Address: "ci@example.org"}, {Name: "Dana Okafor", Address: "dana@example.com"}}
	subjects := []string{"Re: Atlas rollout plan", "Tokyo office: demo environment access", "[atlas] Build failed: main #1842", "Q3 report (final numbers)", "Lunch on Friday? 🍕"}
	var out []model.Message
	for i := range n {
		out = append(out, model.Message{
			ID:   model.MessageID{Account: acct, Folder: "INBOX", UIDValidity: 1, UID: uint32(100 - i)},
			From: senders[i%len(senders)], Subject: subjects[i%len(subjects)],
			Date: now.Add(-start - time.Duration(i)*97*time.Minute), Seen: i%3 == 0, Flagged: i%5 == 1,
		})
	}
	return out
}

var connected = conn.Status{State: conn.StateConnected, Connects: 1, Dials: 1, Generation: 1}

func check(t *testing.T, screen string) {
	t.Helper()
	golden.RequireEqual(t, []byte(screen))
}

func TestCoolingDownCountdown(t *testing.T) {
	yahoo := newFake("Yahoo", conn.Status{State: conn.StateCoolingDown, CooldownUntil: now.Add(42 * time.Second),
		Class: conn.ClassUnavailable, LastError: "check_account: connection refused", Attempt: 3})
	tm, _ := run(t, []tui.Account{newFake("Work", connected, msgs("Work", 6, 5*time.Minute)...), newFake("Personal", connected, msgs("Personal", 4, 30*time.Minute)...), yahoo}, 80, 24, nil)
	// Unread counts show once an account's rows are in: both lists loaded.
	waitFor(t, tm, "Work ● connected 4   Personal ● connected 2")
	screen := final(t, tm)
	if !strings.Contains(screen, "Yahoo ⏸ cooling down 42s") || !strings.Contains(screen, "2 of 3 accounts · Yahoo: cooling down 42s") {
		t.Fatalf("no countdown:\n%s", screen)
	}
	check(t, screen)
}

func TestAuthFailed(t *testing.T) {
	work := newFake("Work", conn.Status{State: conn.StateAuthFailed, Class: conn.ClassAuth, LastError: "add_account: auth: LOGIN failed"})
	tm, _ := run(t, []tui.Account{work, newFake("Personal", connected, msgs("Personal", 5, time.Minute)...)}, 80, 24, nil)
	waitFor(t, tm, "Work ✗ auth failed   Personal ● connected 3")
	screen := final(t, tm)
	if !strings.Contains(screen, "Work ✗ auth failed") || !strings.Contains(screen, "Work: authentication failed") {
		t.Fatalf("auth failure not disclosed:\n%s", screen)
	}
	check(t, screen)
}

// Rows of an account that dropped stay visible, marked stale.
func TestDisconnectedKeepsStaleRows(t *testing.T) {
	yahoo := newFake("Yahoo", connected, msgs("Yahoo", 5, 2*time.Minute)...)
	tm, _ := run(t, []tui.Account{newFake("Work", connected, msgs("Work", 5, time.Minute)...), yahoo}, 80, 24, nil)
	waitFor(t, tm, "Work ● connected 3   Yahoo ● connected 3")
	yahoo.set(conn.Status{State: conn.StateDisconnected, Class: conn.ClassDrop, LastError: "provider exited: signal: killed", Generation: 1})
	waitFor(t, tm, "disconnected")
	screen := final(t, tm)
	stale := 0
	for _, l := range strings.Split(screen, "\n") {
		if r := []rune(l); strings.Contains(l, " Yahoo ") && len(r) > 5 && strings.ContainsRune(string(r[:5]), '~') {
			stale++
		}
	}
	if stale != 5 {
		t.Fatalf("%d stale Yahoo rows, want 5:\n%s", stale, screen)
	}
	check(t, screen)
}

func TestHelp(t *testing.T) {
	tm, _ := run(t, []tui.Account{newFake("Work", connected, msgs("Work", 3, time.Minute)...)}, 80, 24, nil)
	waitFor(t, tm, "3 messages")
	tm.Send(key("?"))
	waitFor(t, tm, "clear selection")
	check(t, final(t, tm))
}

func TestMessageView(t *testing.T) {
	m := msgs("Work", 3, time.Minute)
	work := newFake("Work", connected, m...)
	work.body = model.Body{Message: m[0], Text: "Hi Sam,\n\nthe rollout is on for Thursday.\n\n— Zoë", Attachments: []model.Attachment{{Name: "plan.pdf", Type: "application/pdf", Size: 48213}}}
	work.body.To = []model.Address{{Name: "Sam Rivera", Address: "sam@example.com"}}
	tm, _ := run(t, []tui.Account{work}, 80, 24, nil)
	waitFor(t, tm, "3 messages")
	tm.Send(key("enter"))
	waitFor(t, tm, "rollout is on")
	check(t, final(t, tm))
}

// Hostile subjects and senders reach the screen as plain text.
func TestHostileSubjects(t *testing.T) {
	hostile := []model.Message{
		{ID: model.MessageID{Account: "Yahoo", Folder: "INBOX", UIDValidity: 1, UID: 3}, Date: now.Add(-time.Minute),
			From: model.Address{Name: "\x1b]0;pwned\x07Billing", Address: "b@example.net"}, Subject: "Your \x1b[31minvoice\x1b[0m \x1b[2J is \u202efdp.exe"},
		{ID: model.MessageID{Account: "Yahoo", Folder: "INBOX", UIDValidity: 1, UID: 2}, Date: now.Add(-2 * time.Minute),
			From: model.Address{Name: "\x1b]52;c;ZXZpbA==\x07Clip", Address: "c@example.net"}, Subject: "\x1bP1$r\x1b\\DCS \x1b[6n query \x9b31m C1"},
		{ID: model.MessageID{Account: "Yahoo", Folder: "INBOX", UIDValidity: 1, UID: 1}, Date: now.Add(-3 * time.Minute),
			From: model.Address{Name: "Link", Address: "l@example.net"}, Subject: "\x1b]8;;http://evil.example\x1b\\click here\x1b]8;;\x1b\\ now" + strings.Repeat(" long", 100)},
	}
	tm, _ := run(t, []tui.Account{newFake("Yahoo", connected, hostile...)}, 80, 24, nil)
	waitFor(t, tm, "click here")
	screen := final(t, tm)
	for _, bad := range []string{"\x1b", "\x07", "\x9b", "\u202e"} {
		if strings.Contains(screen, bad) {
			t.Fatalf("screen carries %q:\n%q", bad, screen)
		}
	}
	for _, l := range strings.Split(screen, "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Fatalf("a hostile row broke the layout (%d columns): %q", w, l)
		}
	}
	check(t, screen)
}

// Rows arriving never move the cursor off the selected message.
func TestSelectionFollowsMessageAcrossUpdatesAndResize(t *testing.T) {
	work := newFake("Work", connected, msgs("Work", 30, time.Minute)...)
	tm, m := run(t, []tui.Account{work}, 80, 24, func(o *tui.Options) { o.RefreshInterval = 0 })
	waitFor(t, tm, "Lunch")
	for range 5 {
		tm.Send(key("j"))
	}
	// New mail arrives on top; the refresh brings it in.
	more := append(msgs("Work", 2, 0), msgs("Work", 30, time.Minute)...)
	for i := range more[:2] {
		more[i].ID.UID = uint32(200 + i)
		more[i].Subject = fmt.Sprintf("brand new %d", i)
	}
	work.mu.Lock()
	work.page.Messages = more
	work.mu.Unlock()
	tm.Send(key("r"))
	waitFor(t, tm, "brand new")
	tm.Send(teaResize(100, 30))
	screen := final(t, tm)
	_ = m
	// The sixth row (uid 95) was selected before two new rows arrived above it.
	if sel := selectedLine(screen); !strings.Contains(sel, "高橋 雅人") || !strings.Contains(sel, "Re: Atlas rollout plan") {
		t.Fatalf("cursor left the selected message:\n%s", screen)
	}
	check(t, screen)
}

func selectedLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, ">") {
			return l
		}
	}
	return ""
}

// The message view's help names every key that acts there (issue 37,
// item 16): n/p through the thread, U, e/d and the other triage keys
// were missing, though they work.
func TestMessageViewHelpNamesItsKeys(t *testing.T) {
	tm, _ := run(t, []tui.Account{newFake("Work", connected, msgs("Work", 3, time.Minute)...)}, 80, 24, nil)
	waitFor(t, tm, "3 messages")
	tm.Send(key("enter"))
	waitFor(t, tm, "message · ")
	tm.Send(key("?"))
	waitFor(t, tm, "n next in thread", "p previous in thread", "U unsubscribe", "e archive", "d trash", "u read/unread",
		"f flag", "m move", "Z snooze", "z undo", "r reply")
	final(t, tm)
}
