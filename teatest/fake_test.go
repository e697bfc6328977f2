package teatest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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
	ch      chan accounts.Health

	applyErr error             // every write fails before sending (the account is down)
	failUID  map[uint32]string // uids the server refuses
	applied  []model.Op
	moved    []model.Message
	older    []model.Message // beyond the loaded page: only a server search finds them
}

// newFake holds its own copy of msgs: Apply edits the page in place, and
// a test that still reads its slice must not share the backing array.
func newFake(name string, st conn.Status, msgs ...model.Message) *fakeAccount {
	st.Account = name
	return &fakeAccount{name: name, status: st, page: accounts.Page{Folder: "INBOX", Messages: slices.Clone(msgs)}, ch: make(chan accounts.Health, 1)}
}

func (f *fakeAccount) Name() string { return f.name }
func (f *fakeAccount) Health() accounts.Health {
	f.mu.Lock()
	defer f.mu.Unlock()
	return accounts.HealthOf(nil, f.status, nil, time.Now())
}
func (f *fakeAccount) Watch() (<-chan accounts.Health, func()) {
	f.ch <- f.Health()
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
	f.ch <- accounts.HealthOf(nil, st, nil, time.Now())
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
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range f.page.Messages {
		if m.ID == id && f.body.ID == (model.MessageID{}) {
			return model.Body{Message: m, Text: "(the text of " + m.Subject + ")"}, nil // any listed message opens, unless one body is set
		}
	}
	return model.Body{}, errors.New("no such message")
}
func (f *fakeAccount) Refresh(ctx context.Context) error { return nil }
func (f *fakeAccount) Stderr() string                    { return f.stderr }

// Apply answers like a provider: done (moved messages leave the page,
// flags change), unless the account is set to fail.
func (f *fakeAccount) Apply(ctx context.Context, op model.Op, folder string, uv uint32, msgs []model.Message) ([]model.ItemResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = append(f.applied, op)
	if f.applyErr != nil {
		return nil, f.applyErr
	}
	var res []model.ItemResult
	for _, m := range msgs {
		r := model.ItemResult{UID: m.ID.UID, Kind: model.ResultDone}
		if why, bad := f.failUID[m.ID.UID]; bad {
			res = append(res, model.ItemResult{UID: m.ID.UID, Kind: model.ResultFailed, Err: why})
			continue
		}
		dest := op.To
		switch op.Action {
		case model.ActArchive:
			dest = "Archive"
		case model.ActTrash:
			dest = "Trash"
		}
		for i, pm := range f.page.Messages {
			if pm.ID.UID != m.ID.UID || pm.ID.Folder != folder {
				continue
			}
			switch op.Action {
			case model.ActSetSeen:
				f.page.Messages[i].Seen = op.Value
			case model.ActSetFlagged:
				f.page.Messages[i].Flagged = op.Value
			default:
				f.page.Messages = append(f.page.Messages[:i], f.page.Messages[i+1:]...)
				f.moved = append(f.moved, pm)
				r.Dest = model.MessageID{Account: f.name, Folder: dest, UIDValidity: 9, UID: 1000 + m.ID.UID}
			}
			break
		}
		if op.Action == model.ActMove && folder != "INBOX" && op.To == "INBOX" {
			// An undo: the message comes back with a new uid.
			for _, mv := range f.moved {
				if 1000+mv.ID.UID == m.ID.UID {
					back := mv
					back.ID.UID = 2000 + mv.ID.UID
					f.page.Messages = append([]model.Message{back}, f.page.Messages...)
					r.Dest = back.ID
				}
			}
		}
		res = append(res, r)
	}
	return res, nil
}

func (f *fakeAccount) Folders(ctx context.Context) ([]model.Folder, error) {
	return []model.Folder{{Name: "INBOX"}, {Name: "Archive", SpecialUse: "archive"}, {Name: "Projects/Atlas"}, {Name: "Receipts"}, {Name: "Trash", SpecialUse: "trash"}}, nil
}

func (f *fakeAccount) Search(ctx context.Context, folder, query string, limit int, _ uint32) (accounts.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out accounts.Page
	for _, m := range f.older {
		if strings.Contains(strings.ToLower(m.Subject), strings.ToLower(query)) {
			out.Messages = append(out.Messages, m)
		}
	}
	return out, nil
}

// appliedOps is what f was asked to write, once it has been asked at
// least n times (or a generous bound passed): a triage is drawn before
// its write runs.
func appliedOps(t *testing.T, f *fakeAccount, n int) []model.Op {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		ops := slices.Clone(f.applied)
		f.mu.Unlock()
		if len(ops) >= n || time.Now().After(deadline) {
			return ops
		}
		time.Sleep(time.Millisecond)
	}
}
