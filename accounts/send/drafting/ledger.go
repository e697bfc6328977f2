package drafting

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Who wrote a draft, as Author says it and list_drafts shows it.
const (
	Agent  = "agent"
	Person = "person"
)

// record is one agent draft in the ledger. The hash is of the draft's
// text file as the agent left it: a person's edit changes the text, and
// with it the answer to "whose is this".
type record struct {
	DraftID   string    `json:"draft_id"`
	Account   string    `json:"account"`
	MessageID string    `json:"message_id"` // of the copy filed in Drafts
	SHA256    string    `json:"sha256"`
	Created   time.Time `json:"created"`
}

// ledgerDir is where the records live: beside drafts/ and outbox/, so a
// draft and the record of its author share one root and one owner.
const ledgerDir = "agent-drafts"

func hashText(text []byte) string {
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:])
}

func (w *Writer) recordPath(id string) string {
	return filepath.Join(w.root, ledgerDir, id+".json")
}

// remember records draft id as the agent's, with text as it wrote it.
func (w *Writer) remember(rec record) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(w.root, ledgerDir), rec.DraftID+".json", data)
}

// forget removes id's record (the draft is discarded or sent).
func (w *Writer) forget(id string) error {
	err := os.Remove(w.recordPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// lookup is id's record; ok false when there is none (or it does not
// parse: a damaged record makes no one an agent).
func (w *Writer) lookup(id string) (record, bool) {
	data, err := os.ReadFile(w.recordPath(id))
	if err != nil {
		return record{}, false
	}
	var rec record
	if json.Unmarshal(data, &rec) != nil || rec.DraftID != id {
		return record{}, false
	}
	return rec, true
}

// Author says who wrote the local draft id whose text is text: Agent
// while the ledger has it and the text is unchanged since the agent
// wrote it, else Person. Nothing in the text itself counts.
func (w *Writer) Author(id string, text []byte) string {
	rec, ok := w.lookup(id)
	if ok && text != nil && rec.SHA256 == hashText(text) {
		return Agent
	}
	return Person
}

// writeAtomic writes name in dir (made 0700) through a temp file and a
// rename: a reader sees the old record or the new, never half of one.
func writeAtomic(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("drafting: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return fmt.Errorf("drafting: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("drafting: writing %s: %w", name, err)
	}
	return nil
}
