package query

import (
	"slices"
	"strings"
	"time"

	"unibox/model"
)

// Doc is one message as Match sees it: the text of each field as stored
// (Match cuts it into tokens itself) and what the other keys ask about.
type Doc struct {
	Account, Folder string
	Text            map[Field]string // From, To, Cc, Subject, Body, Filename
	// Tokens, when set, are Text already cut (Tokenize): a caller
	// matching one document against many queries cuts it once.
	Tokens        map[Field][]string
	Date          time.Time
	Seen, Flagged bool
	Answered      bool
	Attachment    bool
}

// Match answers n for d the slow, obvious way: the oracle the index is
// held against, and the check of rows a server search brings in.
func Match(n Node, d Doc) bool {
	return (&matcher{d: d, toks: map[Field][]string{}}).match(n)
}

type matcher struct {
	d    Doc
	toks map[Field][]string
}

// Tokenize sets d.Tokens from d.Text.
func (d *Doc) Tokenize() {
	d.Tokens = make(map[Field][]string, len(Fields))
	for _, f := range Fields {
		d.Tokens[f] = Tokens(d.Text[f])
	}
}

func (m *matcher) tokens(f Field) []string {
	if m.d.Tokens != nil {
		return m.d.Tokens[f]
	}
	t, ok := m.toks[f]
	if !ok {
		t = Tokens(m.d.Text[f])
		m.toks[f] = t
	}
	return t
}

func (m *matcher) match(n Node) bool {
	switch n := n.(type) {
	case Text:
		if n.Field != Anywhere {
			return Contains(m.tokens(n.Field), n.Tokens, n.Prefix)
		}
		return slices.ContainsFunc(Fields, func(f Field) bool { return Contains(m.tokens(f), n.Tokens, n.Prefix) })
	case State:
		switch n {
		case Unread:
			return !m.d.Seen
		case Read:
			return m.d.Seen
		case Flagged:
			return m.d.Flagged
		case Answered:
			return m.d.Answered
		case Attachment:
			return m.d.Attachment
		}
	case Place:
		if n.Folder {
			return strings.EqualFold(m.d.Folder, n.Name)
		}
		return strings.EqualFold(m.d.Account, n.Name)
	case Dated:
		if n.Before {
			return m.d.Date.Before(n.At)
		}
		return !m.d.Date.Before(n.At)
	case And:
		for _, c := range n.Nodes {
			if !m.match(c) {
				return false
			}
		}
		return true
	case Or:
		return slices.ContainsFunc(n.Nodes, m.match)
	case Not:
		return !m.match(n.Node)
	}
	return false
}

// Contains says whether want stands in have as consecutive tokens, the
// last one only as a prefix when prefix is set.
func Contains(have, want []string, prefix bool) bool {
	if len(want) == 0 {
		return false
	}
	last := len(want) - 1
	for i := 0; i+len(want) <= len(have); i++ {
		ok := true
		for j, w := range want {
			h := have[i+j]
			if j == last && prefix {
				ok = strings.HasPrefix(h, w)
			} else {
				ok = h == w
			}
			if !ok {
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Envelope is m as Match sees it from its envelope alone (no body): what
// a face checks its loaded rows against, and the rows a server search
// brings in. The text is written as the store indexes it.
func Envelope(m model.Message) Doc {
	addrs := func(as []model.Address) string {
		var b strings.Builder
		for _, a := range as {
			b.WriteString(a.Name + " " + a.Address + "\n")
		}
		return b.String()
	}
	return Doc{Account: m.ID.Account, Folder: m.ID.Folder, Date: m.Date, Seen: m.Seen, Flagged: m.Flagged,
		Answered: m.Answered, Attachment: m.HasAttachments, Text: map[Field]string{
			From: m.From.Name + " " + m.From.Address, To: addrs(m.To), Cc: addrs(m.Cc), Subject: m.Subject,
			Filename: strings.Join(m.AttachmentNames, "\n")}}
}
