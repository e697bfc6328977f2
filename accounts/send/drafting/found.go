package drafting

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"unibox/accounts/send/outbox"
	"unibox/model"
)

// Found is the author of a draft found in a Drafts folder that was not
// written from this data directory: no local draft, no outbox entry and
// no record of a postponing stands for it. A stranger's mail moved into
// Drafts is one; so is a draft another machine or another client
// postponed. Nothing vouches for what it says, its From above all, so it
// is neither the person's nor an agent's: the review marks it, and it
// goes only from one of the account's own addresses.
const Found = "found"

// writtenDir holds one record per copy a person postponed into Drafts
// from here: beside the ledger, under the same root and owner.
const writtenDir = "drafts-written"

// postponed is one copy filed in Drafts from here. UID 0: the server did
// not say (no UIDPLUS); the Message-ID, made here at random, then stands
// alone.
type postponed struct {
	Account     string    `json:"account"`
	Folder      string    `json:"folder"`
	UIDValidity uint32    `json:"uidvalidity"`
	UID         uint32    `json:"uid"`
	MessageID   string    `json:"message_id"`
	Created     time.Time `json:"created"`
	// Kind and Original are what the postponed draft answers or
	// forwards, so that reopened from Drafts it still does: shown under
	// it, and flagged \Answered or $Forwarded once sent. Absent in
	// records written before them (and for a new message).
	Kind     string      `json:"kind,omitempty"`
	Original *outbox.Ref `json:"original,omitempty"`
}

// Postponed records that the copy at id, whose Message-ID is messageID,
// was filed in Drafts from here by a person (the TUI's p): listed again,
// it is the person's draft, not a found one.
func (w *Writer) Postponed(id model.MessageID, messageID string) error {
	return w.postponedFrom(id, messageID, outbox.Draft{})
}

// postponedFrom is Postponed for a copy of the local draft dr, keeping
// what dr answers or forwards.
func (w *Writer) postponedFrom(id model.MessageID, messageID string, dr outbox.Draft) error {
	rec := postponed{Account: id.Account, Folder: id.Folder, UIDValidity: id.UIDValidity, UID: id.UID,
		MessageID: messageID, Created: w.Now().UTC(), Kind: dr.Kind, Original: dr.Original}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(id.Account + "\x00" + messageID))
	return writeAtomic(filepath.Join(w.root, writtenDir), hex.EncodeToString(sum[:16])+".json", data)
}

// WrittenHere says whether m, a message in account's Drafts folder, is a
// copy a person postponed from here: a record with its UID (folder and
// UIDVALIDITY too) and its Message-ID, or, where the server gave no UID,
// its Message-ID alone. A header is never enough by itself where a UID
// was known: a stranger can copy a Message-ID, not a UID the server gave.
func (w *Writer) WrittenHere(m model.Message) bool {
	_, ok := w.recordOf(m)
	return ok
}

// Answers is what m, a copy postponed from here, answers or forwards:
// its kind ("reply", "reply_all", "forward") and the original; "" and
// nil for a new message, a found draft, or a record from before kinds
// were kept.
func (w *Writer) Answers(m model.Message) (string, *outbox.Ref) {
	rec, ok := w.recordOf(m)
	if !ok {
		return "", nil
	}
	return rec.Kind, rec.Original
}

// recordOf is the record of m, if it was postponed from here.
func (w *Writer) recordOf(m model.Message) (postponed, bool) {
	for _, rec := range w.postponedRecords() {
		if rec.Account != m.ID.Account || rec.MessageID == "" || rec.MessageID != m.MessageID {
			continue
		}
		if rec.UID == 0 {
			return rec, true
		}
		if rec.UID == m.ID.UID && rec.UIDValidity == m.ID.UIDValidity &&
			model.CanonicalFolder(rec.Folder) == model.CanonicalFolder(m.ID.Folder) {
			return rec, true
		}
	}
	return postponed{}, false
}

// FoundIn is which of msgs (ServerOnly's answer) are found drafts: all
// but the copies postponed from here.
func (w *Writer) FoundIn(msgs []model.Message) map[model.MessageID]bool {
	out := map[model.MessageID]bool{}
	for _, m := range msgs {
		if !w.WrittenHere(m) {
			out[m.ID] = true
		}
	}
	return out
}

// postponedRecords reads every record; a damaged one vouches for nothing.
func (w *Writer) postponedRecords() []postponed {
	dir := filepath.Join(w.root, writtenDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []postponed
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		var rec postponed
		if json.Unmarshal(data, &rec) == nil {
			out = append(out, rec)
		}
	}
	return out
}

// FoundDate is the time a list shows for a found draft: its Date header,
// which its sender wrote, never later than now (a date in the future
// would keep it on top of every list); none stays zero. It is not when anyone here wrote
// it, and lists say so.
func FoundDate(m model.Message, now time.Time) time.Time {
	if m.Date.After(now) {
		return now
	}
	return m.Date
}
