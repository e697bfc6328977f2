package query

import (
	"strings"
	"time"
)

// Parse reads a query. now anchors newer:/older: and gives before:/after:
// their time zone. Words side by side must all match; OR binds closer
// than that (as in Gmail: `from:ann OR from:bob budget` is budget mail
// from either); parentheses group. A word whose key is not one of the
// language's (`re:`, `http://…`) is plain text.
func Parse(q string, now time.Time) (Node, error) {
	lexemes, err := lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{lx: lexemes, now: now}
	n, err := p.and()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.lx) {
		l := p.lx[p.i]
		return nil, &Error{Pos: l.pos, Token: l.raw, Why: "this closes no parenthesis"}
	}
	if n == nil {
		return nil, ErrEmpty
	}
	return n, nil
}

type parser struct {
	lx  []lexeme
	i   int
	now time.Time
}

func (p *parser) peek() (lexeme, bool) {
	if p.i < len(p.lx) {
		return p.lx[p.i], true
	}
	return lexeme{}, false
}

// and reads terms side by side up to a ) or the end. A term that holds
// nothing to match (a lone "&") is left out.
func (p *parser) and() (Node, error) {
	var nodes []Node
	for {
		l, ok := p.peek()
		if !ok || l.kind == close {
			break
		}
		if l.kind == opAnd {
			p.i++
			continue
		}
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if n != nil {
			nodes = append(nodes, n)
		}
	}
	return group(nodes, false), nil
}

// or reads unary (OR unary)*.
func (p *parser) or() (Node, error) {
	if l, _ := p.peek(); l.kind == opOr {
		return nil, &Error{Pos: l.pos, Token: l.raw, Why: "OR needs a term before it"}
	}
	first, err := p.unary()
	if err != nil {
		return nil, err
	}
	nodes := []Node{first}
	for {
		l, ok := p.peek()
		if !ok || l.kind != opOr {
			break
		}
		p.i++
		if next, ok := p.peek(); !ok || next.kind == close || next.kind == opOr || next.kind == opAnd {
			return nil, &Error{Pos: l.pos, Token: l.raw, Why: "OR needs a term after it"}
		}
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	return group(nodes, true), nil
}

// unary reads NOT x, -x, (…) or a term.
func (p *parser) unary() (Node, error) {
	l := p.lx[p.i]
	p.i++
	switch l.kind {
	case opNot:
		if next, ok := p.peek(); !ok || next.kind == close || next.kind == opOr {
			return nil, &Error{Pos: l.pos, Token: l.raw, Why: "NOT needs a term after it"}
		}
		n, err := p.unary()
		return negate(n), err
	case open:
		n, err := p.and()
		if err != nil {
			return nil, err
		}
		if c, ok := p.peek(); !ok || c.kind != close {
			return nil, &Error{Pos: l.pos, Token: "(", Why: "this parenthesis is never closed"}
		}
		p.i++
		if l.neg {
			return negate(n), nil
		}
		return n, nil
	}
	n, err := p.term(l)
	if err != nil || !l.neg {
		return n, err
	}
	return negate(n), nil
}

func negate(n Node) Node {
	if n == nil {
		return nil
	}
	return Not{Node: n}
}

// group makes one node of several: nil for none, the node for one.
func group(nodes []Node, or bool) Node {
	var kept []Node
	for _, n := range nodes {
		if n != nil {
			kept = append(kept, n)
		}
	}
	switch {
	case len(kept) == 0:
		return nil
	case len(kept) == 1:
		return kept[0]
	case or:
		return Or{Nodes: kept}
	}
	return And{Nodes: kept}
}

// fields are the keys that look in a text field.
var fields = map[string]Field{
	"from": From, "to": To, "cc": Cc, "subject": Subject, "body": Body, "filename": Filename,
}

// term reads one word, phrase or key:value.
func (p *parser) term(l lexeme) (Node, error) {
	if l.kind == phrase {
		return text(Anywhere, l.value, true), nil
	}
	bad := func(why string) error { return &Error{Pos: l.pos, Token: l.raw, Why: why} }
	known := l.key != "" && (fields[l.key] != 0 || keyed[l.key] != nil)
	if !known {
		return text(Anywhere, strings.TrimPrefix(l.raw, "-"), false), nil
	}
	if l.value == "" {
		return nil, bad(l.key + ": needs a value after the colon")
	}
	if f, ok := fields[l.key]; ok {
		return text(f, l.value, l.quoted), nil
	}
	return keyed[l.key](p, l.value, bad)
}

// text makes a Text of what was typed; nil when it holds no token.
func text(f Field, typed string, quoted bool) Node {
	prefix := !quoted && strings.HasSuffix(typed, "*")
	toks := Tokens(typed)
	if len(toks) == 0 {
		return nil
	}
	return Text{Field: f, Tokens: toks, Prefix: prefix}
}
