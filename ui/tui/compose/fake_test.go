package compose

import (
	"context"
	"net/mail"
	"os"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"unibox/accounts/send/outbox"
	"unibox/model"
	mailcompose "unibox/model/compose"
	"unibox/model/review"
	"unibox/ui/tui/screen"
	"unibox/ui/tui/screen/screentest"
)

// now is the fixed clock of these tests, teatest's.
var now = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

// writer is an account that can answer mail, as Sam <sam@example.com>,
// who has written to Bob before and to nobody else; what it files in
// Drafts is kept.
type writer struct {
	screentest.Account
	mu     sync.Mutex
	drafts [][]byte
}

func newWriter(name string) *writer { return &writer{Account: screentest.Account{Label: name}} }

func (w *writer) Identity() (*mail.Address, []string) {
	return &mail.Address{Name: "Sam", Address: "sam@example.com"}, nil
}
func (w *writer) CanSend() error { return nil }
func (w *writer) Signature(context.Context, string) (mailcompose.Signature, error) {
	return mailcompose.Signature{}, nil
}
func (w *writer) Part(context.Context, model.MessageID, int) (model.Part, error) {
	return model.Part{}, os.ErrNotExist
}
func (w *writer) Append(_ context.Context, _, _ string, raw []byte, _ []string, _ time.Time) (model.MessageID, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drafts = append(w.drafts, raw)
	return model.MessageID{Account: w.Label, Folder: "Drafts", UIDValidity: 1, UID: uint32(len(w.drafts))}, nil
}
func (w *writer) DeleteMessages(_ context.Context, _ string, _ uint32, uids []uint32) ([]model.ItemResult, error) {
	return []model.ItemResult{{UID: uids[0]}}, nil
}
func (w *writer) FindMessageID(context.Context, string, string, string) (model.MessageID, bool, error) {
	return model.MessageID{}, false, nil
}
func (w *writer) DraftEvent(string, string, string) {}

// Known: Sam has written to Bob before, to nobody else.
func (w *writer) Known(context.Context, *outbox.Box, []string) review.Known {
	return review.Known{Addrs: map[string]bool{review.AddressKey("bob@example.com"): true}}
}

// openRoom is an outbox in a temp folder, and an Env over it and accts at
// now, as the root would make them.
func openRoom(t *testing.T, accts ...screen.Account) (*outbox.Box, *screen.Env) {
	t.Helper()
	box, err := outbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := screentest.Env(t)
	e.Opts.Now = func() time.Time { return now }
	e.Opts.Accounts = accts
	e.Opts.CallTimeout = 10 * time.Second
	e.Opts.Mailroom = &screen.Mailroom{Box: box, Editor: "false", SendDelay: time.Minute}
	return box, e
}

// settle runs cmd and every command the composer answers its messages
// with, in turn, as the program would, until none is left.
func settle(t *testing.T, c Composer, cmd tea.Cmd) Composer {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100 {
			t.Fatal("the composer never settled")
		}
		next := queue[0]
		queue = queue[1:]
		if next == nil {
			continue
		}
		switch msg := next().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			var more tea.Cmd
			c, more = c.Update(msg)
			queue = append(queue, more)
		}
	}
	return c
}
