package dispatch_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"time"

	"unibox/model"
)

// mailbox is the IMAP half of a test account: folders in memory, with
// the faults dispatch must ride out (an APPEND carried out whose answer
// was lost, a flag that fails). Every call is logged, in order.
type mailbox struct {
	mu      sync.Mutex
	folders map[string][]*stored
	next    uint32
	calls   []string
	at      []time.Time // when each call came
	// serverFiles: the SMTP server files what it accepts in Sent.
	serverFiles bool
	// appendLost: the next n APPENDs store the message, then fail as a
	// link cut before the answer would.
	appendLost int
	// flagFails: the next n flag calls fail without an answer.
	flagFails int
}

type stored struct {
	uid       uint32
	messageID string
	raw       []byte
	flags     []string
}

const uidValidity = 7

func newMailbox() *mailbox { return &mailbox{folders: map[string][]*stored{}} }

// put files raw in folder and returns its id.
func (m *mailbox) put(folder string, raw []byte, flags []string) uint32 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	id := ""
	if msg, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		id = msg.Header.Get("Message-Id")
	}
	m.folders[folder] = append(m.folders[folder], &stored{uid: m.next, messageID: id, raw: raw, flags: flags})
	return m.next
}

// in is a copy of folder's messages.
func (m *mailbox) in(folder string) []stored {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []stored
	for _, s := range m.folders[folder] {
		out = append(out, *s)
	}
	return out
}

// log is the calls so far.
func (m *mailbox) log() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.calls)
}

// firstCallAt is when the first call came (zero: none did).
func (m *mailbox) firstCallAt() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.at) == 0 {
		return time.Time{}
	}
	return m.at[0]
}

func (m *mailbox) called(f string, args ...any) {
	m.mu.Lock()
	m.calls = append(m.calls, fmt.Sprintf(f, args...))
	m.at = append(m.at, time.Now())
	m.mu.Unlock()
}

// resolve is the folder a provider would use: sent_folder, else the
// special-use \Sent ("sent"); anything else is a caller's mistake.
func resolve(folder, special string) (string, error) {
	switch {
	case folder != "" && special == "":
		return folder, nil
	case folder == "" && special == "sent":
		return "Sent", nil
	}
	return "", fmt.Errorf("folder %q with special %q: give one of them", folder, special)
}

func (m *mailbox) FindMessageID(_ context.Context, folder, special, messageID string) (model.MessageID, bool, error) {
	m.called("find %s|%s", folder, special)
	name, err := resolve(folder, special)
	if err != nil {
		return model.MessageID{}, false, err
	}
	for _, s := range m.in(name) {
		if s.messageID == messageID {
			return model.MessageID{Folder: name, UIDValidity: uidValidity, UID: s.uid}, true, nil
		}
	}
	return model.MessageID{}, false, nil
}

func (m *mailbox) Append(_ context.Context, folder, special string, raw []byte, flags []string, _ time.Time) (model.MessageID, error) {
	m.called("append %s|%s", folder, special)
	name, err := resolve(folder, special)
	if err != nil {
		return model.MessageID{}, err
	}
	uid := m.put(name, bytes.Clone(raw), flags)
	m.mu.Lock()
	lost := m.appendLost > 0
	if lost {
		m.appendLost--
	}
	m.mu.Unlock()
	if lost {
		return model.MessageID{}, errors.New("the link dropped before APPEND's answer")
	}
	return model.MessageID{Folder: name, UIDValidity: uidValidity, UID: uid}, nil
}

func (m *mailbox) MarkAnswered(_ context.Context, id model.MessageID) (model.ItemResult, error) {
	return m.flag(id, `\Answered`)
}

func (m *mailbox) MarkForwarded(_ context.Context, id model.MessageID) (model.ItemResult, error) {
	return m.flag(id, "$Forwarded")
}

func (m *mailbox) flag(id model.MessageID, flag string) (model.ItemResult, error) {
	m.called("flag %s %s/%d", flag, id.Folder, id.UID)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.flagFails > 0 {
		m.flagFails--
		return model.ItemResult{}, errors.New("the link dropped before STORE's answer")
	}
	for _, s := range m.folders[id.Folder] {
		if s.uid == id.UID && id.UIDValidity == uidValidity {
			s.flags = append(s.flags, flag)
			return model.ItemResult{UID: id.UID, Kind: model.ResultDone}, nil
		}
	}
	return model.ItemResult{UID: id.UID, Kind: model.ResultFailed, Err: "no such message"}, nil
}

func (m *mailbox) DeleteMessages(_ context.Context, folder string, uv uint32, uids []uint32) ([]model.ItemResult, error) {
	m.called("delete %s/%s", folder, strings.Trim(fmt.Sprint(uids), "[]"))
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []model.ItemResult
	for _, uid := range uids {
		i := slices.IndexFunc(m.folders[folder], func(s *stored) bool { return s.uid == uid })
		if i < 0 || uv != uidValidity {
			out = append(out, model.ItemResult{UID: uid, Kind: model.ResultFailed, Err: "no such message"})
			continue
		}
		m.folders[folder] = slices.Delete(m.folders[folder], i, i+1)
		out = append(out, model.ItemResult{UID: uid, Kind: model.ResultDone})
	}
	return out, nil
}
