package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"unibox/model"
)

// storedBody is what of a model.Body the store keeps: the envelope is the
// message row's, but for Cc and Reply-To, which the row does not hold
// and which the message view shows and a reply to all answers.
type storedBody struct {
	Cc          []model.Address    `json:"cc,omitempty"`
	ReplyTo     []model.Address    `json:"reply_to,omitempty"`
	Headers     []model.Header     `json:"headers,omitempty"`
	Text        string             `json:"text"`
	FromHTML    bool               `json:"from_html,omitempty"`
	Attachments []model.Attachment `json:"attachments,omitempty"`
	Problems    []string           `json:"problems,omitempty"`
	// Calendar: an invitation's calendar part, so its card shows offline.
	Calendar string `json:"calendar,omitempty"`
	// TextOnly: fetched in the background for search (SaveFetched), the
	// text alone; an opened message's body replaces it.
	TextOnly bool `json:"text_only,omitempty"`
}

// TextOnlyNote is the problem a text-only body is shown with offline.
const TextOnlyNote = "only its text is stored (fetched in the background for search): headers and attachments are read online"

// SaveBody keeps an opened message's body for reading offline, then drops
// the bodies of the oldest mail until all of them fit in maxBytes. A body
// whose message row is not stored (it came from a search beyond the
// stored pages) is not kept: nothing would list it offline.
func (s *Store) SaveBody(ctx context.Context, k Key, b model.Body, maxBytes int64) error {
	return s.SaveBodies(ctx, k, []model.Body{b}, maxBytes)
}

// SaveBodies is SaveBody for several bodies of one account in one write:
// one transaction and one eviction for a batch, not one each.
func (s *Store) SaveBodies(ctx context.Context, k Key, bodies []model.Body, maxBytes int64) error {
	_, err := s.saveBodies(ctx, k, bodies, false, maxBytes)
	return err
}

// Saved is what SaveFetched did with a batch.
type Saved struct {
	// Kept is how many bodies of the batch are stored after the write.
	Kept int
	// Full: the cap is reached at the batch's mail: a body of the batch
	// was dropped in the same write (the oldest go first) or was larger
	// than the whole cap. Older mail would only push out newer.
	Full bool
}

// SaveFetched keeps bodies fetched in the background (their text only,
// for search and reading offline), in one write whose triggers index
// them: a kill between two batches loses neither. A message that has a
// body already (opened meanwhile: the whole one) keeps it. Then the
// bodies of the oldest mail are dropped until all fit in maxBytes.
func (s *Store) SaveFetched(ctx context.Context, k Key, bodies []model.Body, maxBytes int64) (Saved, error) {
	return s.saveBodies(ctx, k, bodies, true, maxBytes)
}

func (s *Store) saveBodies(ctx context.Context, k Key, bodies []model.Body, textOnly bool, maxBytes int64) (Saved, error) {
	data := make([][]byte, len(bodies))
	for i, b := range bodies {
		d, err := json.Marshal(storedBody{Cc: b.Cc, ReplyTo: b.ReplyTo, Headers: b.Headers, Text: b.Text, FromHTML: b.FromHTML,
			Attachments: b.Attachments, Problems: b.Problems, Calendar: b.Calendar, TextOnly: textOnly})
		if err != nil {
			return Saved{}, err
		}
		data[i] = d
	}
	var saved Saved
	err := s.write(ctx, func(tx *sql.Tx) error {
		saved = Saved{}
		acct, err := accountID(tx, k, false)
		if errors.Is(err, ErrNotStored) {
			return nil
		}
		if err != nil {
			return err
		}
		conflict := `DO UPDATE SET body = excluded.body, size = excluded.size, stored_at = excluded.stored_at, date = excluded.date`
		if textOnly {
			conflict = `DO NOTHING`
		}
		// One statement for the batch, in docid order: FTS5 writes its
		// pending terms out to a new segment at every statement's
		// savepoint and whenever a rowid comes below the last one, so a
		// statement a body (newest first, as the fetch goes) made a
		// segment and merges per message, at a third of the rate.
		type row struct {
			Folder string `json:"f"`
			UID    uint32 `json:"u"`
			UV     uint32 `json:"v"`
			Body   string `json:"b"`
		}
		batch := []row{}
		for i, b := range bodies {
			if int64(len(data[i])) > maxBytes {
				saved.Full = true
				continue // bigger than the whole cap: keeping it would evict everything else
			}
			batch = append(batch, row{b.ID.Folder, b.ID.UID, b.ID.UIDValidity, string(data[i])})
		}
		arg, err := json.Marshal(batch)
		if err != nil {
			return err
		}
		rows, err := tx.Query(insertBodies+conflict+` RETURNING folder, uid`, time.Now().UnixMilli(), arg, acct)
		if err != nil {
			return err
		}
		mine := map[bodyKey]bool{}
		for rows.Next() {
			k := bodyKey{acct: acct}
			if err := rows.Scan(&k.folder, &k.uid); err != nil {
				rows.Close()
				return err
			}
			mine[k] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, b := range bodies {
			if b.Calendar != "" { // an invitation opened: its event is kept beyond its body
				if err := writeInvite(tx, acct, b.ID.Folder, b.ID.UID, b.From.Address, b.Date, b.Calendar); err != nil {
					return err
				}
			}
		}
		dropped, err := evict(tx, maxBytes)
		if err != nil {
			return err
		}
		for key := range mine {
			if dropped[key] {
				saved.Full = true
			} else {
				saved.Kept++
			}
		}
		return nil
	})
	return saved, err
}

// insertBodies stores a batch given as a JSON array of {f, u, v, b}
// (folder, uid, UIDVALIDITY, body), each only where its row is stored
// under that UIDVALIDITY; an ON CONFLICT clause follows. The array is
// the outer loop (each row found by its key), the inserts go in docid
// order.
const insertBodies = `INSERT INTO body (account_id, folder, uid, body, size, stored_at, date)
	SELECT m.account_id, m.folder, m.uid, CAST(j.value ->> 'b' AS BLOB), length(CAST(j.value ->> 'b' AS BLOB)), ?, m.date
	FROM json_each(?) j
	CROSS JOIN message m ON m.account_id = ? AND m.folder = j.value ->> 'f' AND m.uid = j.value ->> 'u'
	CROSS JOIN folder f ON f.account_id = m.account_id AND f.name = m.folder AND f.uidvalidity = j.value ->> 'v'
	WHERE true ORDER BY m.docid
	ON CONFLICT (account_id, folder, uid) `

// bodyKey names a stored body.
type bodyKey struct {
	acct   int64
	folder string
	uid    uint32
}

// evict drops the bodies of the oldest mail (by the message's date) of
// every account until the rest fit in maxBytes, and says which it
// dropped. It reads the index of dates and sizes, never a body.
func evict(tx *sql.Tx, maxBytes int64) (map[bodyKey]bool, error) {
	var total int64
	if err := tx.QueryRow(`SELECT coalesce(sum(size), 0) FROM body INDEXED BY body_date`).Scan(&total); err != nil {
		return nil, err
	}
	if total <= maxBytes {
		return nil, nil
	}
	rows, err := tx.Query(`SELECT account_id, folder, uid, size FROM body INDEXED BY body_date ORDER BY date, size`)
	if err != nil {
		return nil, err
	}
	var drop []bodyKey
	for total > maxBytes && rows.Next() {
		var k bodyKey
		var size int64
		if err := rows.Scan(&k.acct, &k.folder, &k.uid, &size); err != nil {
			rows.Close()
			return nil, err
		}
		drop = append(drop, k)
		total -= size
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	dropped := make(map[bodyKey]bool, len(drop))
	st, err := tx.Prepare(`DELETE FROM body WHERE account_id = ? AND folder = ? AND uid = ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for _, k := range drop {
		if _, err := st.Exec(k.acct, k.folder, k.uid); err != nil {
			return nil, err
		}
		dropped[k] = true
	}
	return dropped, nil
}

// Body is the stored body of id, if it is stored under id's UIDVALIDITY.
func (s *Store) Body(ctx context.Context, k Key, id model.MessageID) (model.Body, error) {
	var body model.Body
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		m, ok, err := stored(tx, acct, k.Name, id)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotStored
		}
		var data []byte
		err = tx.QueryRow(`SELECT body FROM body WHERE account_id = ? AND folder = ? AND uid = ?`, acct, id.Folder, id.UID).Scan(&data)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotStored
		}
		if err != nil {
			return err
		}
		var sb storedBody
		if err := json.Unmarshal(data, &sb); err != nil {
			return fmt.Errorf("stored body of uid %d: %w", id.UID, err)
		}
		body = model.Body{Message: m, ReplyTo: sb.ReplyTo, Headers: sb.Headers, Text: sb.Text, FromHTML: sb.FromHTML, Attachments: sb.Attachments, Problems: sb.Problems, Calendar: sb.Calendar}
		if sb.Cc != nil || body.Cc == nil {
			body.Cc = sb.Cc // what the opened message said, over the listing's
		}
		if sb.TextOnly {
			body.Problems = append(body.Problems, TextOnlyNote)
		}
		return nil
	})
	return body, err
}
