package drafting

import (
	"context"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
	"unibox/model/compose"
)

// folderDouble is a Drafts folder held in memory, standing in for an
// account in this package's tests (the agent face's tests file drafts on
// a real IMAP server). It records what was appended, deleted and said.
type folderDouble struct {
	mu      sync.Mutex
	name    string
	msgs    map[uint32][]byte
	next    uint32
	events  []string
	failAdd error
	// storeAnyway: Append stores the message before failing with failAdd
	// (the link dropped after the server took it).
	storeAnyway bool
	failFind    error
}

func newFolder(name string) *folderDouble {
	return &folderDouble{name: name, msgs: map[uint32][]byte{}, next: 1}
}

func (f *folderDouble) Name() string { return f.name }
func (f *folderDouble) Identity() (*mail.Address, []string) {
	return &mail.Address{Name: "Sam", Address: "sam@example.org"}, nil
}
func (f *folderDouble) CanSend() error { return nil }
func (f *folderDouble) Signature(context.Context, string) (compose.Signature, error) {
	return compose.Signature{}, nil
}
func (f *folderDouble) Part(context.Context, model.MessageID, int) (model.Part, error) {
	return model.Part{}, nil
}

func (f *folderDouble) Append(_ context.Context, _, special string, raw []byte, _ []string, _ time.Time) (model.MessageID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failAdd != nil && !f.storeAnyway {
		return model.MessageID{}, f.failAdd
	}
	uid := f.next
	f.next++
	f.msgs[uid] = raw
	if f.failAdd != nil {
		return model.MessageID{}, f.failAdd
	}
	return model.MessageID{Account: f.name, Folder: "Drafts", UIDValidity: 7, UID: uid}, nil
}

func (f *folderDouble) DeleteMessages(_ context.Context, _ string, _ uint32, uids []uint32) ([]model.ItemResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []model.ItemResult
	for _, u := range uids {
		k := model.ResultGone
		if _, ok := f.msgs[u]; ok {
			k = model.ResultDone
			delete(f.msgs, u)
		}
		out = append(out, model.ItemResult{UID: u, Kind: k})
	}
	return out, nil
}

func (f *folderDouble) DraftEvent(actor, verb, what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, actor+" "+verb+" "+what)
}

func (f *folderDouble) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.msgs)
}

func openWriter(t *testing.T, root string, max int) *Writer {
	t.Helper()
	if root == "" {
		root = t.TempDir()
	}
	box, err := outbox.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return NewWriter(box, max)
}

// enqueued is the outbox entry a person's send of m would make.
func enqueued(m Made) outbox.Entry {
	return outbox.Entry{Account: m.Draft.Account, MessageID: "<" + m.MessageID + ">", DraftID: m.Draft.ID, Rcpt: []string{"ann@example.org"},
		From: "sam@example.org", SendAt: time.Now().Add(time.Hour)}
}

func (f *folderDouble) FindMessageID(_ context.Context, _, _, messageID string) (model.MessageID, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failFind != nil {
		return model.MessageID{}, false, f.failFind
	}
	for uid, raw := range f.msgs {
		if strings.Contains(string(raw), "<"+messageID+">") {
			return model.MessageID{Account: f.name, Folder: "Drafts", UIDValidity: 7, UID: uid}, true, nil
		}
	}
	return model.MessageID{}, false, nil
}
