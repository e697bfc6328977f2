package store

import (
	"context"
	"database/sql"
	"strings"

	"unibox/model"
	"unibox/model/query"
)

// Search is a query answered from the store alone (issue 38): no server
// is asked, so it is as fast offline as on, and the same on every face.
type Search struct {
	Query    query.Node
	Accounts []Key // the accounts to look in (account: narrows them)
	Limit    int
	// Before continues a search below the last page's Next (0: from the
	// newest).
	Before int64
	// Ranked orders hits by relevance (FTS5's bm25, a word in the subject
	// or the sender weighing more than one in the body; then newest
	// first) instead of by date: the top Limit only, no further page,
	// and Before is not used. A query without text to match has nothing
	// to rank by and comes newest first.
	Ranked bool
}

// Found is a page of a search's hits, newest first.
type Found struct {
	Hits []Hit
	// Next is where the next page starts (Search.Before); 0 when none is
	// left.
	Next int64
	// Unindexed counts stored rows that are not in the index yet (a file
	// being upgraded): they are not searched, and a face says so.
	Unindexed int
}

// Hit is a message a search found, with its stored text (at most
// maxIndexedBody; "" when no body is stored), for a snippet.
type Hit struct {
	model.Message
	Text string
}

// Search answers s from the index: rows in date order (docids), the text
// of the query matched by FTS5, the rest (flags, places, dates) by SQL on
// the rows. What query.Match answers for a row's stored text is what
// Search answers (the oracle test holds them together).
func (st *Store) Search(ctx context.Context, s Search) (Found, error) {
	var out Found
	if s.Limit <= 0 {
		return out, nil
	}
	err := st.read(ctx, func(tx *sql.Tx) error {
		names := map[int64]string{}
		c := compiler{accounts: map[string][]int64{}}
		for _, k := range s.Accounts {
			id, err := accountID(tx, k, false)
			if err != nil {
				continue // nothing stored of it yet
			}
			names[id] = k.Name
			c.accounts[k.Name] = append(c.accounts[k.Name], id)
			c.ids = append(c.ids, id)
		}
		if err := tx.QueryRow(`SELECT count(*) FROM message INDEXED BY message_unindexed WHERE docid IS NULL`).Scan(&out.Unindexed); err != nil {
			return err
		}
		if len(c.ids) == 0 {
			return nil
		}
		var stored int
		if err := tx.QueryRow(`SELECT count(*) FROM account`).Scan(&stored); err != nil {
			return err
		}
		c.everyAccount = stored == len(c.ids)
		sqlText, args := c.statement(s)
		if c.err != nil {
			return c.err
		}
		rows, err := tx.QueryContext(ctx, sqlText, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var last int64
		for rows.Next() {
			var acct, docid int64
			var folder string
			var uv uint32
			var body sql.NullString
			m, err := scanRow(rows, &acct, &docid, &folder, &uv, &body)
			if err != nil {
				return err
			}
			if len(out.Hits) == s.Limit {
				if !s.Ranked {
					out.Next = last // a row beyond the page: there is more
				}
				break
			}
			m.ID.Account, m.ID.Folder, m.ID.UIDValidity = names[acct], folder, uv
			last = docid
			out.Hits = append(out.Hits, Hit{Message: m, Text: bodyText(body.String)})
		}
		return rows.Err()
	})
	return out, err
}

// statement is the SQL of a search: one FTS5 MATCH that drives it when
// the query's top level has text to match (the hits come off the index
// newest first, and rows are looked up by docid until the page is
// full), else the rows by docid, newest first.
func (c *compiler) statement(s Search) (string, []any) {
	before := s.Before
	if before <= 0 || s.Ranked {
		before = 1 << 62
	}
	match, rest := c.split(s.Query)
	head := `SELECT m.account_id, m.docid, f.name, f.uidvalidity, b.body, ` + columnsOf("m.") + `
		FROM `
	joins := ` JOIN folder f ON f.account_id = m.account_id AND f.name = m.folder
		LEFT JOIN thread_alias ON thread_alias.old = m.thread_id
		LEFT JOIN body b ON b.account_id = m.account_id AND b.folder = m.folder AND b.uid = m.uid`
	// The rows' conditions, and their arguments: the accounts, the page,
	// and what the index does not answer.
	where := ` WHERE m.account_id IN (` + placeholders(len(c.ids)) + `) AND m.docid < ?`
	var args []any
	for _, id := range c.ids {
		args = append(args, id)
	}
	args = append(args, before)
	if rest != nil {
		cond, more := c.sql(rest)
		where += ` AND (` + cond + `)`
		args = append(args, more...)
	}
	if match == "" {
		return head + `message m INDEXED BY message_docid` + joins + where + ` ORDER BY m.docid DESC LIMIT ?`, append(args, s.Limit+1)
	}
	matched := `search JOIN message m ON m.docid = search.rowid` + joins + where + ` AND search MATCH ?`
	if !s.Ranked {
		return head + matched + ` ORDER BY search.rowid DESC LIMIT ?`, append(args, match, s.Limit+1)
	}
	// Every match is scored before the best are known: the scoring pass
	// reads only docids and scores (SQLite drops the unused LEFT JOINs),
	// and whole rows, bodies included, are read for the best Limit alone
	// (sorting whole rows carried every match's body through the sorter).
	best := `WITH best AS (SELECT m.docid AS d, ` + rankWeights + ` AS r FROM ` + matched + ` ORDER BY r, search.rowid DESC LIMIT ?) `
	all := append(append(append([]any{}, args...), match, s.Limit+1), args...)
	if c.everyAccount && rest == nil {
		// Nothing to check on the rows: the index alone scores (a join
		// to each match's row took the scoring pass from 20 to 55 ms
		// over 100,000 messages).
		best = `WITH best AS (SELECT rowid AS d, ` + rankWeights + ` AS r FROM search WHERE search MATCH ? ORDER BY r, rowid DESC LIMIT ?) `
		all = append([]any{match, s.Limit + 1}, args...)
	}
	return best + head + `best JOIN message m ON m.docid = best.d` + joins + where + ` ORDER BY best.r, best.d DESC`, all
}

// rankWeights is bm25 over the index's columns in their order (sender,
// recipient, copied, subject, body, filename): a word in a subject says
// more about what a message is than the same word in a long body, and
// the sender is what a person searches by most.
const rankWeights = `bm25(search, 4.0, 2.0, 1.0, 6.0, 1.0, 3.0)`

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
