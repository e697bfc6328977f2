package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"

	"unibox/model"
	"unibox/model/query"
)

// The search index's pieces that SQL cannot say (schema 6 holds the
// table and the triggers that call them): the words of a field, as
// model/query defines a word (folded, CJK by character), and the docid
// that orders the index by date.
//
// A docid is the message's date in seconds shifted left by docidShift,
// plus a sequence within that second: FTS5 returns rowids in order, so
// "the newest 50 hits" is the last 50 rowids of a match, read without a
// sort (a join sorted by date took 495 ms against 0.08 ms in the issue's
// prototype). The message table is WITHOUT ROWID and pages arrive
// newest first, so the order cannot come from insertion; the date row of
// a message without a Date (or one dated in the future) is already its
// arrival time (serveimap's summary).

// docidShift leaves 2^20 docids a second; a second that fills them takes
// the next free docid above every other (still unique, out of order only
// for such a burst).
const docidShift = 20

// maxIndexedBody is how much of a body's text is indexed: the issue's
// 256 KB; a mailing-list digest beyond it is found by its first part.
const maxIndexedBody = 256 << 10

// nextDocid is the SQL for the docid of a row dated date (an expression
// in the trigger's or the statement's scope).
func nextDocid(date string) string {
	return `(SELECT CASE WHEN n < b + 1048576 THEN n ELSE (SELECT max(docid) + 1 FROM message) END FROM
		(SELECT b, coalesce((SELECT max(docid) + 1 FROM message WHERE docid >= b AND docid < b + 1048576), b) AS n
			FROM (SELECT unibox_docbase(` + date + `) AS b)))`
}

// sqlText is a text argument of a SQL function registered here (NULL
// and numbers read as "").
func sqlText(v driver.Value) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return ""
}

func init() {
	sqlite.MustRegisterDeterministicScalarFunction("unibox_docbase", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		ms, _ := args[0].(int64)
		return max(ms, 0) / 1000 << docidShift, nil
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_words", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return query.IndexText(sqlText(args[0])), nil
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_addr_words", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return query.IndexText(addressText(sqlText(args[0]))), nil
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_same_name", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return strings.EqualFold(sqlText(args[0]), sqlText(args[1])), nil // folder: as query.Match compares
	})
	sqlite.MustRegisterDeterministicScalarFunction("unibox_body_words", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		return query.IndexText(bodyText(sqlText(args[0]))), nil
	})
}

// retokenize empties the index of a file built with an older definition
// of a word (query.TokensVersion, kept in the counter table; a file
// indexed by schema 6 before the counter existed was built by version
// 1): a query folded the new way would miss what was folded the old way.
// Its rows lose their docids and are indexed again in the background
// (IndexOlder), as an upgraded file's are; faces say how many are left
// meanwhile. from is the file's schema version before migrate (0: new,
// whose empty index is current). It reports whether it wrote.
func retokenize(tx *sql.Tx, from int) (bool, error) {
	built := 1
	err := tx.QueryRow(`SELECT value FROM counter WHERE name = 'tokens'`).Scan(&built)
	switch {
	case errors.Is(err, sql.ErrNoRows) && from == 0:
		built = 0 // nothing indexed yet
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return false, fmt.Errorf("the index's word version: %w", err)
	}
	if built >= query.TokensVersion {
		return false, nil
	}
	if built > 0 || from >= 6 {
		if _, err := tx.Exec(`INSERT INTO search (search) VALUES ('delete-all');
			UPDATE message SET docid = NULL WHERE docid IS NOT NULL`); err != nil {
			return false, fmt.Errorf("emptying an index of words version %d: %w", built, err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO counter (name, value) VALUES ('tokens', ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, query.TokensVersion); err != nil {
		return false, err
	}
	return true, nil
}

// addressText is a stored address list (JSON) as text to index: each
// name and address. A list that does not read is indexed as nothing, not
// as its JSON (whose keys would match "name").
func addressText(list string) string {
	var as []model.Address
	if list == "" || json.Unmarshal([]byte(list), &as) != nil {
		return ""
	}
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "%s %s\n", a.Name, a.Address)
	}
	return b.String()
}

// bodyText is the text of a stored body (the viewer's: HTML already
// converted), at most maxIndexedBody bytes of it.
func bodyText(stored string) string {
	var sb storedBody
	if json.Unmarshal([]byte(stored), &sb) != nil {
		return ""
	}
	t := sb.Text
	if len(t) > maxIndexedBody {
		t = strings.ToValidUTF8(t[:maxIndexedBody], "")
	}
	return t
}

// indexChunk is how many rows one background write indexes: about 10 ms
// of work with bodies, short enough for a sync's write to go between.
const indexChunk = 200

// IndexOlder indexes up to n rows that are not in the index (stored
// before it, version 5 and below), in one write; indexed is how many it
// did, 0 once none is left. Rows are taken in key order (the partial
// index of unindexed rows), not by date: each gets its docid from its
// date either way.
func (s *Store) IndexOlder(ctx context.Context, n int) (indexed int, err error) {
	err = s.write(ctx, func(tx *sql.Tx) error {
		indexed = 0
		rows, err := tx.Query(`SELECT account_id, folder, uid, date FROM message INDEXED BY message_unindexed
			WHERE docid IS NULL LIMIT ?`, n)
		if err != nil {
			return err
		}
		type key struct {
			acct   int64
			folder string
			uid    uint32
			date   int64
		}
		var keys []key
		for rows.Next() {
			var k key
			if err := rows.Scan(&k.acct, &k.folder, &k.uid, &k.date); err != nil {
				rows.Close()
				return err
			}
			keys = append(keys, k)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		st, err := tx.Prepare(`UPDATE message SET docid = ` + nextDocid("?") + `
			WHERE account_id = ? AND folder = ? AND uid = ? AND docid IS NULL`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, k := range keys {
			if _, err := st.Exec(k.date, k.acct, k.folder, k.uid); err != nil {
				return fmt.Errorf("index uid %d of %q: %w", k.uid, k.folder, err)
			}
		}
		indexed = len(keys)
		return nil
	})
	return indexed, err
}
