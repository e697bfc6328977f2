package config

import (
	"strconv"
	"strings"
)

// locator knows the line of every table header and key in a file, by key
// path ("account[1].security", "account[0].tools.list.tool"). The TOML
// decoder keeps positions per key name only, so the n-th [[account]]'s
// keys are indistinguishable there; this small scanner tracks the array
// indices itself. It runs on text the decoder already accepted, so it
// only has to be right about valid TOML: comments, quoted and dotted
// keys, and values (strings, arrays, inline tables) spanning lines.
type locator struct {
	lines map[string]int
}

// line returns where path was written, else where its nearest written
// ancestor was (a missing key reports its table's header), else 1.
func (l *locator) line(path string) int {
	for path != "" {
		if n, ok := l.lines[path]; ok {
			return n
		}
		path = parentPath(path)
	}
	return 1
}

func locate(src string) *locator {
	s := &scanner{src: src, line: 1}
	l := &locator{lines: map[string]int{}}
	count := map[string]int{} // array-of-tables path → tables so far
	cur := ""
	record := func(path string, line int) {
		if _, dup := l.lines[path]; !dup {
			l.lines[path] = line
		}
	}
	for {
		s.skipSpace(true)
		if s.eof() {
			return l
		}
		line := s.line
		switch s.peek() {
		case '#':
			s.skipComment()
		case '[':
			s.pos++
			array := s.peek() == '['
			if array {
				s.pos++
			}
			segs := s.key()
			cur = ""
			for i, k := range segs {
				cur = joinPath(cur, k)
				if i == len(segs)-1 && array {
					count[cur]++
				}
				if n := count[cur]; n > 0 {
					cur += "[" + strconv.Itoa(n-1) + "]"
				}
			}
			record(cur, line)
			s.skipLine()
		default:
			path := cur
			for _, k := range s.key() {
				path = joinPath(path, k)
			}
			record(path, line)
			s.skipSpace(false)
			if s.peek() == '=' {
				s.pos++
			}
			s.skipValue()
		}
	}
}

// joinPath appends one key to a key path, quoting it when it is not bare.
func joinPath(path, key string) string {
	if !isBare(key) {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// parentPath drops the last key or index from a path.
func parentPath(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndexByte(path, '['); i > 0 {
			return path[:i]
		}
	}
	if strings.HasSuffix(path, `"`) { // a quoted last key may contain dots
		for i := len(path) - 2; i >= 0; i-- {
			if path[i] == '"' && (i == 0 || path[i-1] == '.') {
				return strings.TrimSuffix(path[:i], ".")
			}
		}
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

func isBare(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
