package query

import (
	"strings"
	"unicode"
)

// kind is what a lexeme is.
type kind int

const (
	word   kind = iota // a bare word, possibly key:value
	phrase             // "a quoted phrase" (value holds it, unquoted)
	open               // (
	close              // )
	opOr               // OR
	opAnd              // AND, the same as a space
	opNot              // NOT
)

// lexeme is one piece of a query, where it began (a 1-based column in
// runes, as a person counts) and, for key:value words, its two halves.
type lexeme struct {
	kind   kind
	raw    string // as typed, for errors
	key    string // before the colon, lower-cased; "" for a plain word
	value  string // after the colon (unquoted), or the whole word
	quoted bool   // value was in quotes: a phrase, never a prefix
	neg    bool   // a leading -
	pos    int
}

// lex cuts q into lexemes. Its only error is a quote left open.
func lex(q string) ([]lexeme, error) {
	rs := []rune(q)
	var out []lexeme
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		start := i
		lx := lexeme{pos: start + 1}
		if rs[i] == '-' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) && rs[i+1] != ')' {
			lx.neg = true
			i++
		}
		switch rs[i] {
		case '(':
			lx.kind, lx.raw = open, string(rs[start:i+1])
			out = append(out, lx)
			i++
			continue
		case ')':
			out = append(out, lexeme{kind: close, raw: ")", pos: start + 1})
			i++
			continue
		case '"':
			end, err := closing(rs, i)
			if err != nil {
				return nil, err
			}
			lx.kind, lx.value, lx.quoted = phrase, string(rs[i+1:end]), true
			lx.raw = string(rs[start : end+1])
			out = append(out, lx)
			i = end + 1
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) && rs[j] != '(' && rs[j] != ')' {
			if rs[j] == ':' && j+1 < len(rs) && rs[j+1] == '"' && j > i {
				end, err := closing(rs, j+1)
				if err != nil {
					return nil, err
				}
				lx.key = strings.ToLower(string(rs[i:j]))
				lx.value, lx.quoted = string(rs[j+2:end]), true
				j = end + 1
				break
			}
			j++
		}
		lx.raw = string(rs[start:j])
		if !lx.quoted {
			w := string(rs[i:j])
			lx.value = w
			if k, v, ok := strings.Cut(w, ":"); ok && k != "" {
				lx.key, lx.value = strings.ToLower(k), v
			}
			if !lx.neg {
				switch w {
				case "OR":
					lx.kind = opOr
				case "AND":
					lx.kind = opAnd
				case "NOT":
					lx.kind = opNot
				}
			}
		}
		out = append(out, lx)
		i = j
	}
	return out, nil
}

// closing finds the quote that closes the one at rs[at].
func closing(rs []rune, at int) (int, error) {
	for k := at + 1; k < len(rs); k++ {
		if rs[k] == '"' {
			return k, nil
		}
	}
	return 0, &Error{Pos: at + 1, Token: string(rs[at:]), Why: "this quote is never closed"}
}
