package query

import (
	"fmt"
	"strings"
	"time"
)

// Node is one part of a parsed query.
type Node interface{ node() }

// Field is where a Text looks.
type Field int

const (
	Anywhere Field = iota // any of the fields below
	From                  // the sender's name and address
	To
	Cc
	Subject
	Body     // the text of the message
	Filename // the names of its attachments
)

// Fields are the searchable fields in a fixed order: the store's columns
// follow it.
var Fields = []Field{From, To, Cc, Subject, Body, Filename}

func (f Field) String() string {
	switch f {
	case Anywhere:
		return "anywhere"
	case From:
		return "from"
	case To:
		return "to"
	case Cc:
		return "cc"
	case Subject:
		return "subject"
	case Body:
		return "body"
	case Filename:
		return "filename"
	}
	return fmt.Sprintf("Field(%d)", int(f))
}

// Text matches when Tokens stand one after the other in Field (one token
// is a word; several, from a "phrase" or a word like "e-mail" or "東京",
// must be consecutive). With Prefix the last token matches any token it
// begins ("inv*").
type Text struct {
	Field  Field
	Tokens []string
	Prefix bool
}

// State is a flag of the message.
type State int

const (
	Unread State = iota
	Read
	Flagged
	Answered
	Attachment // has:attachment
)

func (s State) String() string {
	switch s {
	case Unread:
		return "is:unread"
	case Read:
		return "is:read"
	case Flagged:
		return "is:flagged"
	case Answered:
		return "is:answered"
	case Attachment:
		return "has:attachment"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Place matches messages of one account (Folder false) or of a folder of
// any account, by name, case-insensitively (INBOX is inbox).
type Place struct {
	Folder bool
	Name   string
}

// Dated bounds the message's date: before At (Before) or at or after it.
// before:/after: name days in the local time zone; newer:/older: count
// back from the time the query was parsed.
type Dated struct {
	Before bool
	At     time.Time
}

// And matches when every node does; Or when any does; Not when its node
// does not.
type (
	And struct{ Nodes []Node }
	Or  struct{ Nodes []Node }
	Not struct{ Node Node }
)

func (Text) node()  {}
func (State) node() {}
func (Place) node() {}
func (Dated) node() {}
func (And) node()   {}
func (Or) node()    {}
func (Not) node()   {}

// String writes n back in the query language, fully parenthesised: tests
// read it, and it shows how a query was understood.
func String(n Node) string {
	switch n := n.(type) {
	case Text:
		s := strings.Join(n.Tokens, " ")
		if len(n.Tokens) > 1 {
			s = `"` + s + `"`
		}
		if n.Prefix {
			s += "*"
		}
		if n.Field != Anywhere {
			s = n.Field.String() + ":" + s
		}
		return s
	case State:
		return n.String()
	case Place:
		if n.Folder {
			return "folder:" + quoteIfSpaced(n.Name)
		}
		return "account:" + quoteIfSpaced(n.Name)
	case Dated:
		if n.Before {
			return "before:" + n.At.Format(time.RFC3339)
		}
		return "after:" + n.At.Format(time.RFC3339)
	case And:
		return "(" + joinNodes(n.Nodes, " ") + ")"
	case Or:
		return "(" + joinNodes(n.Nodes, " OR ") + ")"
	case Not:
		return "-" + String(n.Node)
	}
	return fmt.Sprintf("%#v", n)
}

func joinNodes(nodes []Node, sep string) string {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = String(n)
	}
	return strings.Join(parts, sep)
}

func quoteIfSpaced(s string) string {
	if strings.ContainsAny(s, " \t\"") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
