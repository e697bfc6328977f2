package mcpprovider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// placeholder matches "{name}" inside an argument string.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z][a-z_]*)\}`) })

// knownPlaceholders are every placeholder any operation fills. A "{word}"
// that is not one of them is left alone: it may be literal text a server
// expects.
var knownPlaceholders = []string{"action", "bcc", "bcc_csv", "body", "cc", "cc_csv", "flagged", "folder", "from", "id", "limit",
	"query", "raw", "seen", "subject", "to", "to_csv", "uid"}

// expand returns a deep copy of args with placeholders replaced: a string
// that is exactly "{name}" becomes the typed value (an int for {limit} and
// {uid}, a bool for {seen} and {flagged}), a placeholder inside a longer
// string is substituted as text. The result is never nil, so a tool with
// no arguments gets {} rather than null.
func expand(args map[string]any, vals map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = expandValue(v, vals)
	}
	return out
}

func expandValue(v any, vals map[string]any) any {
	switch t := v.(type) {
	case string:
		return expandString(t, vals)
	case map[string]any:
		return expand(t, vals)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = expandValue(e, vals)
		}
		return out
	}
	return v
}

func expandString(s string, vals map[string]any) any {
	if m := placeholder().FindStringSubmatch(s); m != nil && m[0] == s {
		if val, ok := vals[m[1]]; ok {
			return val
		}
		return s
	}
	return placeholder().ReplaceAllStringFunc(s, func(p string) string {
		if val, ok := vals[p[1:len(p)-1]]; ok {
			if list, ok := val.([]string); ok { // addresses inside text
				return strings.Join(list, ", ")
			}
			return fmt.Sprint(val)
		}
		return p
	})
}

// checkPlaceholders reports a known placeholder in args that op cannot
// fill ({uid} in a list, say): it would reach the server as literal text.
func checkPlaceholders(op string, args map[string]any) error {
	allowed := opPlaceholders[op]
	var bad []string
	walkStrings(args, func(s string) {
		for _, m := range placeholder().FindAllStringSubmatch(s, -1) {
			if slices.Contains(knownPlaceholders, m[1]) && !slices.Contains(allowed, m[1]) && !slices.Contains(bad, m[0]) {
				bad = append(bad, m[0])
			}
		}
	})
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	can := "none"
	if len(allowed) > 0 {
		can = "{" + strings.Join(allowed, "}, {") + "}"
	}
	return fmt.Errorf("%s: no value in the %s operation (it has: %s)", strings.Join(bad, ", "), op, can)
}

// usesFolder reports whether a mapping names the folder anywhere in its
// arguments. A tool that cannot be told the folder only ever reaches the
// server's default one (INBOX), and must not be asked about any other:
// it would act on whatever message has the same uid in INBOX.
func usesFolder(args map[string]any) bool {
	found := false
	walkStrings(args, func(s string) {
		if strings.Contains(s, "{folder}") {
			found = true
		}
	})
	return found
}

func walkStrings(v any, f func(string)) {
	switch t := v.(type) {
	case string:
		f(t)
	case map[string]any:
		for _, e := range t {
			walkStrings(e, f)
		}
	case []any:
		for _, e := range t {
			walkStrings(e, f)
		}
	}
}
