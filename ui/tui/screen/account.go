package screen

import (
	"context"
	"net/mail"
	"time"

	"unibox/accounts"
	"unibox/accounts/send/dispatch"
	"unibox/accounts/send/drafting"
	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
	"unibox/model/review"
)

// Account is what the UI needs of an account (accounts.Account in
// production; tests may render states with their own).
type Account interface {
	Name() string
	Health() accounts.Health
	Watch() (<-chan accounts.Health, func())
	List(ctx context.Context, opts accounts.ListOptions) (accounts.Page, error)
	Get(ctx context.Context, id model.MessageID) (model.Body, error)
	Refresh(ctx context.Context) error
	Stderr() string
	Triage
}

// Triage is what the UI needs of an account to change mail.
type Triage interface {
	Apply(ctx context.Context, op model.Op, folder string, uidValidity uint32, msgs []model.Message) ([]model.ItemResult, error)
	Folders(ctx context.Context) ([]model.Folder, error)
	Search(ctx context.Context, folder, query string, limit int, before uint32) (accounts.Page, error)
}

// Mailroom is how the TUI writes and sends: drafts and the outbox on disk
// (accounts/send/outbox) and the runner that carries them out in the account
// layer. The runner keeps its own time: while an editor runs, Bubble
// Tea's loop is stopped, and the outbox's countdown and retries must not
// stop with it. nil: the TUI cannot send (the compose keys say so).
type Mailroom struct {
	Box    *outbox.Box
	Runner *dispatch.Runner
	// Drafting lists the drafts with who wrote each (an agent, through
	// `unibox mcp`, or a person) and notes a person's steps in the
	// account's history; nil: one over Box.
	Drafting  *drafting.Writer
	Editor    string        // [compose] editor; "": $VISUAL, then $EDITOR, then vi
	SendDelay time.Duration // [compose] send_delay
	// AbortUnmodified: a new message or reply the editor left unchanged
	// is discarded, not reviewed ([compose] abort_unmodified).
	AbortUnmodified bool
	// CalendarAdd is [calendar] add_cmd: it receives an invitation the
	// person accepted once the answer is sent (nil: none).
	CalendarAdd []string
}

// drafting is the room's drafting.Writer, or one over its Box (the cap
// on agents' drafts is no concern of the TUI's).
func (r *Mailroom) Writer() *drafting.Writer {
	if r.Drafting != nil {
		return r.Drafting
	}
	return drafting.NewWriter(r.Box, 0)
}

// Composing is an account that can answer mail (accounts.Account).
type Composing interface {
	Identity() (from *mail.Address, aliases []string)
	CanSend() error
	Part(ctx context.Context, id model.MessageID, index int) (model.Part, error)
	// Signature is what a message from the address from is signed with
	// (accounts.Sending.Signature).
	Signature(ctx context.Context, from string) (compose.Signature, error)
	Append(ctx context.Context, folder, special string, raw []byte, flags []string, date time.Time) (model.MessageID, error)
	DeleteMessages(ctx context.Context, folder string, uidValidity uint32, uids []uint32) ([]model.ItemResult, error)
	// Known is whom the account has written to, among addrs: its Sent
	// folder and the outbox's record (accounts.Account.Known), bounded.
	Known(ctx context.Context, box *outbox.Box, addrs []string) review.Known
}
