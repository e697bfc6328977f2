package ui

import (
	"context"

	"unibox/accounts"
	"unibox/conn"
	"unibox/model"
)

// Account is what the UI needs of an account (accounts.Account in
// production; tests may render states with their own).
type Account interface {
	Name() string
	Status() conn.Status
	Subscribe() (<-chan conn.Status, func())
	List(ctx context.Context, opts accounts.ListOptions) (accounts.Page, error)
	Get(ctx context.Context, id model.MessageID) (model.Body, error)
	Refresh(ctx context.Context) error
	Stderr() string
}

// acctState is the UI's view of one account.
type acctState struct {
	acct    Account
	status  conn.Status
	req     uint64 // latest list request; older results are dropped
	loading bool
	paging  bool   // an older page is being fetched
	lastErr string // last failed operation, for details
}
