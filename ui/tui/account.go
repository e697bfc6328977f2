package tui

import (
	"context"
	"time"

	"unibox/accounts"
	"unibox/accounts/history"
	"unibox/model"
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

// Remembering is an account with a local store (accounts.Account): the
// UI draws its stored rows before its server answers.
type Remembering interface {
	Cached(ctx context.Context, folder string, limit int) (accounts.Page, time.Time, error)
	CachedMatch(ctx context.Context, folder, text string, limit int) (accounts.Page, error)
	CachedOlder(ctx context.Context, folder string, beforeUID uint32, limit int) (accounts.Page, error)
}

// Pushing is an account whose provider pushes changes (IMAP IDLE): the UI
// lists it again at once instead of at the next refresh.
type Pushing interface {
	Pushes() <-chan struct{}
}

// Historied is an account that keeps a history (accounts.Account): its
// details show the newest events.
type Historied interface {
	History(n int) []history.Event
}

// Syncing is an account whose folder the store holds whole and brings up
// to date a page at a time (an IMAP account with a store): the UI syncs it
// instead of listing it, and reads its pages from the store.
type Syncing interface {
	Remembering
	// SyncStepUpTo is one step of the sync, of at most limit new
	// envelopes (0: a page of 200).
	SyncStepUpTo(ctx context.Context, folder string, limit int) (accounts.SyncProgress, bool, error)
	// ListUnstored lists without the store: the page shown when the store
	// fails (a full disk).
	ListUnstored(ctx context.Context, opts accounts.ListOptions) (accounts.Page, error)
}

// Triage is what the UI needs of an account to change mail.
type Triage interface {
	Apply(ctx context.Context, op model.Op, folder string, uidValidity uint32, msgs []model.Message) ([]model.ItemResult, error)
	Folders(ctx context.Context) ([]model.Folder, error)
	Search(ctx context.Context, folder, query string, limit int) (accounts.Page, error)
}
