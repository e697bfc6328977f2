package teatest

import (
	"context"
	"errors"
	"sync"

	"unibox/accounts"
	"unibox/conn"
	"unibox/model"
)

// fakeAccount renders a given state: the UI is the unit under test here,
// so its inputs are fixed (the end-to-end tests use real accounts).
type fakeAccount struct {
	name    string
	mu      sync.Mutex
	status  conn.Status
	page    accounts.Page
	body    model.Body
	stderr  string
	listErr error
	ch      chan conn.Status
}

func newFake(name string, st conn.Status, msgs ...model.Message) *fakeAccount {
	st.Account = name
	return &fakeAccount{name: name, status: st, page: accounts.Page{Folder: "INBOX", Messages: msgs}, ch: make(chan conn.Status, 1)}
}

func (f *fakeAccount) Name() string { return f.name }
func (f *fakeAccount) Status() conn.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}
func (f *fakeAccount) Subscribe() (<-chan conn.Status, func()) {
	f.ch <- f.Status()
	return f.ch, func() {}
}

// set publishes a new status, as an adapter would.
func (f *fakeAccount) set(st conn.Status) {
	st.Account = f.name
	f.mu.Lock()
	f.status = st
	f.mu.Unlock()
	select {
	case <-f.ch:
	default:
	}
	f.ch <- st
}

func (f *fakeAccount) List(ctx context.Context, o accounts.ListOptions) (accounts.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.listErr != nil {
		return accounts.Page{}, f.listErr
	}
	return f.page, nil
}
func (f *fakeAccount) Get(ctx context.Context, id model.MessageID) (model.Body, error) {
	if f.body.ID == id {
		return f.body, nil
	}
	return model.Body{}, errors.New("no such message")
}
func (f *fakeAccount) Refresh(ctx context.Context) error { return nil }
func (f *fakeAccount) Stderr() string                    { return f.stderr }
