package config

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// table walks one decoded TOML table. Each getter marks its key as
// consumed and reports a wrong type at the key's own line, so finish can
// call everything left over an unknown key. We walk the generic tree
// rather than decode into structs because the struct decoder matches
// field names case-insensitively ("Port" would silently work), stops at
// the first type mismatch, and cannot tell which [[account]] a key was in.
type table struct {
	is    *issues
	loc   *locator
	path  string // key path of the table itself, "" for the root
	m     map[string]any
	seen  map[string]bool
	asked []string // every key a getter looked for: the suggestions
}

func newTable(is *issues, loc *locator, path string, m map[string]any) *table {
	return &table{is: is, loc: loc, path: path, m: m, seen: map[string]bool{}}
}

// at is the key path of key in this table.
func (t *table) at(key string) string { return joinPath(t.path, key) }

// line is where key was written, or the table's own line if it was not.
func (t *table) line(key string) int { return t.loc.line(t.at(key)) }

func (t *table) errorf(key, format string, args ...any) {
	t.is.add(t.line(key), t.at(key), format, args...)
}

// get returns the raw value of key, marking it consumed.
func (t *table) get(key string) (any, bool) {
	if !slices.Contains(t.asked, key) {
		t.asked = append(t.asked, key)
	}
	v, ok := t.m[key]
	if ok {
		t.seen[key] = true
	}
	return v, ok
}

// has reports whether key is present, without consuming it.
func (t *table) has(key string) bool { _, ok := t.m[key]; return ok }

func (t *table) wrongType(key, want string, v any) {
	t.errorf(key, "must be %s, not %s", want, typeName(v))
}

// str returns key's string; ok is false when absent or mistyped.
func (t *table) str(key string) (string, bool) {
	v, ok := t.get(key)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		t.wrongType(key, "a string", v)
	}
	return s, ok
}

func (t *table) integer(key string) (int, bool) {
	v, ok := t.get(key)
	if !ok {
		return 0, false
	}
	n, ok := v.(int64)
	if !ok {
		t.wrongType(key, "an integer", v)
	}
	return int(n), ok
}

func (t *table) float(key string) (float64, bool) {
	v, ok := t.get(key)
	if !ok {
		return 0, false
	}
	switch f := v.(type) {
	case float64:
		return f, true
	case int64:
		return float64(f), true
	}
	t.wrongType(key, "a number", v)
	return 0, false
}

func (t *table) boolean(key string) (bool, bool) {
	v, ok := t.get(key)
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		t.wrongType(key, "true or false", v)
	}
	return b, ok
}

// duration reads a Go duration string; a bare number is refused because
// its unit would be a guess.
func (t *table) duration(key string) (time.Duration, bool) {
	v, ok := t.get(key)
	if !ok {
		return 0, false
	}
	s, ok := v.(string)
	if !ok {
		t.wrongType(key, `a duration string like "20s" or "1m30s"`, v)
		return 0, false
	}
	var d Duration
	if err := d.UnmarshalText([]byte(s)); err != nil {
		t.errorf(key, "%v", err)
		return 0, false
	}
	return d.Duration, true
}

// strList reads an array of strings (not checked for emptiness).
func (t *table) strList(key string) ([]string, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	arr, ok := v.([]any)
	if !ok {
		t.wrongType(key, `an array of strings, like ["a", "b"]`, v)
		return nil, false
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		s, isStr := e.(string)
		if !isStr {
			t.errorf(key, "element %d must be a string, not %s", i, typeName(e))
			ok = false
		}
		out[i] = s
	}
	return out, ok
}

// argv reads a command given as an argument list (notify_cmd, open_cmd,
// signature_cmd): a program first, no control characters anywhere, since
// it is run without a shell and shown in errors. example is the error's
// suggestion when the list has no program.
func (t *table) argv(key, example string) ([]string, bool) {
	list, ok := t.strList(key)
	switch {
	case !ok:
		return nil, false
	case len(list) == 0 || list[0] == "":
		t.errorf(key, "needs a program, like %s", example)
	case slices.ContainsFunc(list, hasControl):
		t.errorf(key, "contains control characters")
	default:
		return list, true
	}
	return nil, false
}

// sub returns key's value as a table.
func (t *table) sub(key string) (*table, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.wrongType(key, fmt.Sprintf("a table ([%s])", t.at(key)), v)
		return nil, false
	}
	return newTable(t.is, t.loc, t.at(key), m), true
}

// tables returns key's value as an array of tables ([[key]]).
func (t *table) tables(key string) ([]*table, bool) {
	v, ok := t.get(key)
	if !ok {
		return nil, false
	}
	var ms []map[string]any
	switch x := v.(type) {
	case []map[string]any:
		ms = x
	case []any: // key = [{...}, {...}]
		for _, e := range x {
			m, isMap := e.(map[string]any)
			if !isMap {
				t.wrongType(key, "an array of tables", v)
				return nil, false
			}
			ms = append(ms, m)
		}
	case map[string]any:
		t.errorf(key, "must be an array of tables: write [[%s]], with double brackets", t.at(key))
		return nil, false
	default:
		t.wrongType(key, "an array of tables", v)
		return nil, false
	}
	out := make([]*table, len(ms))
	for i, m := range ms {
		out[i] = newTable(t.is, t.loc, fmt.Sprintf("%s[%d]", t.at(key), i), m)
	}
	return out, true
}

// finish reports every key no getter consumed, in file order.
func (t *table) finish() {
	var left []string
	for k := range t.m {
		if !t.seen[k] {
			left = append(left, k)
		}
	}
	slices.SortFunc(left, func(a, b string) int {
		if d := t.line(a) - t.line(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, k := range left {
		t.errorf(k, "%s", unknownKey(k, t.asked))
	}
}

// unknownKey explains an unknown key, with a likely correction.
func unknownKey(key string, known []string) string {
	if strings.EqualFold(key, "password") {
		return "secrets never live in the config file; use password_cmd (a command that prints the password, e.g. \"pass show mail/work\") or password_env (the name of an environment variable holding it)"
	}
	best, bestDist := "", 3
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return fmt.Sprintf("unknown key; did you mean %q? (keys are case-sensitive)", k)
		}
		if d := editDistance(k, key); d < bestDist && d <= len(key)/2 {
			best, bestDist = k, d
		}
	}
	if best != "" {
		return fmt.Sprintf("unknown key; did you mean %q?", best)
	}
	return "unknown key"
}

// editDistance is the Levenshtein distance, for typo suggestions.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// typeName names a decoded TOML value's type for error messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case time.Time:
		return "a date-time"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}
