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
}

// SaveBody keeps an opened message's body for reading offline, then drops
// the bodies stored longest ago until all of them fit in maxBytes. A body
// whose message row is not stored (it came from a search beyond the
// stored pages) is not kept: nothing would list it offline.
func (s *Store) SaveBody(ctx context.Context, k Key, b model.Body, maxBytes int64) error {
	return s.SaveBodies(ctx, k, []model.Body{b}, maxBytes)
}

// SaveBodies is SaveBody for several bodies of one account in one write:
// one transaction and one eviction (which reads every stored body's
// size) for a batch, not one each.
func (s *Store) SaveBodies(ctx context.Context, k Key, bodies []model.Body, maxBytes int64) error {
	data := make([][]byte, len(bodies))
	for i, b := range bodies {
		d, err := json.Marshal(storedBody{Cc: b.Cc, ReplyTo: b.ReplyTo, Headers: b.Headers, Text: b.Text, FromHTML: b.FromHTML, Attachments: b.Attachments, Problems: b.Problems})
		if err != nil {
			return err
		}
		data[i] = d
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if errors.Is(err, ErrNotStored) {
			return nil
		}
		if err != nil {
			return err
		}
		st, err := tx.Prepare(`INSERT INTO body (account_id, folder, uid, body, size, stored_at)
			SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM message m JOIN folder f ON f.account_id = m.account_id AND f.name = m.folder
				WHERE m.account_id = ? AND m.folder = ? AND m.uid = ? AND f.uidvalidity = ?)
			ON CONFLICT (account_id, folder, uid) DO UPDATE SET body = excluded.body, size = excluded.size, stored_at = excluded.stored_at`)
		if err != nil {
			return err
		}
		defer st.Close()
		now := time.Now().UnixMilli()
		for i, b := range bodies {
			if int64(len(data[i])) > maxBytes {
				continue // bigger than the whole cap: keeping it would evict everything else
			}
			if _, err := st.Exec(acct, b.ID.Folder, b.ID.UID, data[i], len(data[i]), now, acct, b.ID.Folder, b.ID.UID, b.ID.UIDValidity); err != nil {
				return err
			}
		}
		return evict(tx, maxBytes)
	})
}

// evict drops the oldest bodies of every account until the rest fit.
func evict(tx *sql.Tx, maxBytes int64) error {
	_, err := tx.Exec(`DELETE FROM body WHERE (account_id, folder, uid) IN (
		SELECT account_id, folder, uid FROM (
			SELECT account_id, folder, uid, sum(size) OVER (ORDER BY stored_at DESC, account_id, folder, uid) AS kept FROM body)
		WHERE kept > ?)`, maxBytes)
	return err
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
		body = model.Body{Message: m, ReplyTo: sb.ReplyTo, Headers: sb.Headers, Text: sb.Text, FromHTML: sb.FromHTML, Attachments: sb.Attachments, Problems: sb.Problems}
		if sb.Cc != nil || body.Cc == nil {
			body.Cc = sb.Cc // what the opened message said, over the listing's
		}
		return nil
	})
	return body, err
}
