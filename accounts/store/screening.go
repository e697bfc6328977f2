package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"unibox/model/review"
)

// What the screener (accounts/screening.go) reads of the store: the
// senders an account's mail came from, when the screener is first turned
// on, and which threads hold the person's own writing.

// Senders are the address keys (review.AddressKey) of every From stored
// for k, in any folder: when the screener is first turned on they are let
// in, so it never floods with the mail the person already has.
func (s *Store) Senders(ctx context.Context, k Key) ([]string, error) {
	var out []string
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT from_addr FROM message WHERE account_id = ? AND from_addr != ''`, acct)
		if err != nil {
			return err
		}
		defer rows.Close()
		seen := map[string]bool{}
		for rows.Next() {
			var a string
			if err := rows.Scan(&a); err != nil {
				return err
			}
			if key := review.AddressKey(strings.TrimSpace(a)); key != "" && !seen[key] {
				seen[key] = true
				out = append(out, key)
			}
		}
		return rows.Err()
	})
	if errors.Is(err, ErrNotStored) {
		return nil, nil
	}
	return out, err
}

// OwnSentThreads says which of tids hold a message in k's Sent folder (as
// the sync found it) whose From is one of own (address keys): a thread
// the person wrote in. A References header alone proves nothing (anyone
// can name any id); the threads are the store's, which join on ids only
// when subjects agree, and the Sent row is the person's own copy.
func (s *Store) OwnSentThreads(ctx context.Context, k Key, tids []string, own map[string]bool) (map[string]bool, error) {
	out := map[string]bool{}
	if len(tids) == 0 || len(own) == 0 {
		return out, nil
	}
	err := s.read(ctx, func(tx *sql.Tx) error {
		acct, err := accountID(tx, k, false)
		if err != nil {
			return err
		}
		var sent string
		if err := tx.QueryRowContext(ctx, `SELECT sent FROM account WHERE id = ?`, acct).Scan(&sent); err != nil || sent == "" {
			return err
		}
		const chunk = 400
		for len(tids) > 0 {
			n := min(chunk, len(tids))
			var ids []any
			for _, t := range tids[:n] {
				ids = append(ids, t)
			}
			tids = tids[n:]
			// A row's thread_id may have been merged since (thread_alias):
			// its live id is asked for too. Both reads use an index.
			marks := "?" + strings.Repeat(", ?", n-1)
			args := append(append(append([]any{}, ids...), ids...), acct, sent)
			rows, err := tx.QueryContext(ctx, `SELECT coalesce(thread_alias.new, message.thread_id), message.from_addr
				FROM `+messageFrom+` WHERE (message.thread_id IN (`+marks+`) OR message.thread_id IN (SELECT old FROM thread_alias WHERE new IN (`+marks+`)))
				AND message.account_id = ? AND message.folder = ?`, args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var tid, from string
				if err := rows.Scan(&tid, &from); err != nil {
					rows.Close()
					return err
				}
				if own[review.AddressKey(strings.TrimSpace(from))] {
					out[tid] = true
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrNotStored) {
		return out, nil
	}
	return out, err
}
