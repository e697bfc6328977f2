package store

import (
	"fmt"
	"strings"

	"unibox/model/query"
)

// compiler turns a query into what SQLite answers: the text parts into
// an FTS5 expression (the index), the rest into SQL on message rows
// aliased m. It never puts a value of the query into the SQL text: FTS5
// strings and SQL values are bound as arguments.
type compiler struct {
	accounts map[string][]int64 // a searched account's name: its ids
	ids      []int64            // every searched account's
	// everyAccount: the search covers every account the store holds.
	everyAccount bool
	err          error // a node it has no SQL for
}

// columns are the FTS5 columns of query.Fields, in its order.
var columns = map[query.Field]string{
	query.From: "sender", query.To: "recipient", query.Cc: "copied",
	query.Subject: "subject", query.Body: "body", query.Filename: "filename",
}

// split parts a query into an FTS5 expression that drives the search
// ("" when none can: no text at the top level) and the rest, to be
// checked on the rows it finds (nil: nothing).
func (c *compiler) split(n query.Node) (string, query.Node) {
	if e, ok := fts(n); ok {
		return e, nil
	}
	and, ok := n.(query.And)
	if !ok {
		return "", n
	}
	var text, rest []query.Node
	for _, k := range and.Nodes {
		if _, ok := fts(k); ok || isNotText(k) {
			text = append(text, k)
		} else {
			rest = append(rest, k)
		}
	}
	e, ok := fts(query.And{Nodes: text})
	if !ok {
		return "", n // only negated text: nothing to drive by
	}
	switch len(rest) {
	case 0:
		return e, nil
	case 1:
		return e, rest[0]
	}
	return e, query.And{Nodes: rest}
}

func isNotText(n query.Node) bool {
	not, ok := n.(query.Not)
	if !ok {
		return false
	}
	_, ok = fts(not.Node)
	return ok
}

// fts is n as an FTS5 expression, when all of it is text: words and
// phrases, AND, OR, and NOT after at least one word (FTS5's NOT is
// binary: "a NOT b", never "NOT b" alone).
func fts(n query.Node) (string, bool) {
	switch n := n.(type) {
	case query.Text:
		return phrase(n), true
	case query.Or:
		parts := make([]string, 0, len(n.Nodes))
		for _, k := range n.Nodes {
			e, ok := fts(k)
			if !ok {
				return "", false
			}
			parts = append(parts, e)
		}
		return "(" + strings.Join(parts, " OR ") + ")", true
	case query.And:
		var pos, neg []string
		for _, k := range n.Nodes {
			if not, ok := k.(query.Not); ok {
				e, ok := fts(not.Node)
				if !ok {
					return "", false
				}
				neg = append(neg, e)
				continue
			}
			e, ok := fts(k)
			if !ok {
				return "", false
			}
			pos = append(pos, e)
		}
		if len(pos) == 0 {
			return "", false
		}
		e := "(" + strings.Join(pos, " AND ") + ")"
		for _, x := range neg {
			e = "(" + e + " NOT " + x + ")"
		}
		return e, true
	}
	return "", false
}

// phrase is a Text as FTS5 says it: the tokens as one quoted string (the
// ascii tokenizer cuts it at the spaces into the same tokens, which must
// stand together), * for a prefix, and the field's column.
func phrase(t query.Text) string {
	e := `"` + strings.ReplaceAll(strings.Join(t.Tokens, " "), `"`, `""`) + `"`
	if t.Prefix {
		e += "*"
	}
	if col, ok := columns[t.Field]; ok {
		e = col + " : " + e
	}
	return e
}

// sql is n as a condition on the row m, with its arguments.
func (c *compiler) sql(n query.Node) (string, []any) {
	switch n := n.(type) {
	case query.Text:
		return `m.docid IN (SELECT rowid FROM search WHERE search MATCH ?)`, []any{phrase(n)}
	case query.State:
		switch n {
		case query.Unread:
			return `NOT m.seen`, nil
		case query.Read:
			return `m.seen`, nil
		case query.Flagged:
			return `m.flagged`, nil
		case query.Answered:
			return `m.answered`, nil
		case query.Attachment:
			return `m.attachments`, nil
		}
	case query.Place:
		if n.Folder {
			return `unibox_same_name(m.folder, ?)`, []any{n.Name}
		}
		var ids []any
		for name, of := range c.accounts {
			if strings.EqualFold(name, n.Name) {
				for _, id := range of {
					ids = append(ids, id)
				}
			}
		}
		if len(ids) == 0 {
			return `0`, nil
		}
		return `m.account_id IN (` + placeholders(len(ids)) + `)`, ids
	case query.Dated:
		if n.Before {
			return `m.date < ?`, []any{n.At.UnixMilli()}
		}
		return `m.date >= ?`, []any{n.At.UnixMilli()}
	case query.And, query.Or:
		nodes, sep := andOr(n)
		if e, ok := fts(n); ok { // one MATCH for all of it
			return `m.docid IN (SELECT rowid FROM search WHERE search MATCH ?)`, []any{e}
		}
		parts := make([]string, len(nodes))
		var args []any
		for i, k := range nodes {
			e, a := c.sql(k)
			parts[i], args = "("+e+")", append(args, a...)
		}
		return strings.Join(parts, sep), args
	case query.Not:
		e, a := c.sql(n.Node)
		return `NOT coalesce(` + e + `, 0)`, a
	}
	c.err = fmt.Errorf("search: no SQL for a query's %T", n)
	return `0`, nil
}

func andOr(n query.Node) ([]query.Node, string) {
	if a, ok := n.(query.And); ok {
		return a.Nodes, " AND "
	}
	return n.(query.Or).Nodes, " OR "
}
