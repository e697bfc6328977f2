// Package notifyargs builds notify_cmd's argument list from its config
// template: placeholders such as {subject} are replaced inside the one
// argument that holds them, so a desktop notifier gets exactly the
// arguments it accepts (notify-send takes a summary and a body, no more).
package notifyargs

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Names are the placeholders notify_cmd knows, spelled as in the config.
var Names = []string{"account", "from", "subject", "count"}

// Values are what one run is about. Each string is already one clean
// line (the caller sanitises mail text); Expand escapes it for markup.
type Values struct {
	Account string
	From    string
	Subject string // the newest message's subject
	Count   int    // how many new messages the run is for
}

// ErrUnknown is the class of a placeholder notify_cmd does not know.
var ErrUnknown = errors.New("unknown placeholder")

// UnknownError names the placeholder and the argument that holds it.
type UnknownError struct {
	Index int    // position in the list (0 is the program)
	Name  string // without braces
}

func (e *UnknownError) Error() string {
	if e.Index == 0 {
		return fmt.Sprintf("element 1 is the program, run as written: no placeholder ({%s}) there", e.Name)
	}
	return fmt.Sprintf("element %d: unknown placeholder {%s} (known: %s)", e.Index+1, e.Name, known())
}

// Unwrap classifies it for errors.Is.
func (e *UnknownError) Unwrap() error { return ErrUnknown }

func known() string {
	s := make([]string, len(Names))
	for i, n := range Names {
		s[i] = "{" + n + "}"
	}
	return strings.Join(s, ", ")
}

// placeholder is a word in braces. Any word counts, so a misspelt one
// ({Subject}, {body}) is an error rather than text sent as is; braces
// around anything else ("{}", "{a b}") are plain text.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[A-Za-z0-9_]+\}`) })

// Check reports the first unknown placeholder in argv, and a placeholder
// in the program itself (argv[0] is run as written).
func Check(argv []string) error {
	for i, a := range argv {
		for _, p := range placeholder().FindAllString(a, -1) {
			name := p[1 : len(p)-1]
			if i == 0 || !isKnown(name) {
				return &UnknownError{Index: i, Name: name}
			}
		}
	}
	return nil
}

func isKnown(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Templated reports whether the arguments hold a placeholder. Without one
// the list keeps its first form: account, sender and subject appended.
func Templated(argv []string) bool {
	for _, a := range argv[min(1, len(argv)):] {
		if placeholder().MatchString(a) {
			return true
		}
	}
	return false
}

// Expand returns the arguments (argv[1:]) with every placeholder replaced
// by its value, markup-escaped. One argument stays one argument whatever
// a value holds, and the replacement is a single pass, so a subject that
// reads "{from}" is text, never expanded again. An argument that did not
// start with "-" never comes to: a value is never read as an option.
func Expand(argv []string, v Values) []string {
	vals := map[string]string{
		"account": Escape(v.Account),
		"from":    Escape(v.From),
		"subject": Escape(v.Subject),
		"count":   strconv.Itoa(v.Count),
	}
	out := make([]string, 0, len(argv))
	for _, a := range argv[min(1, len(argv)):] {
		s := placeholder().ReplaceAllStringFunc(a, func(p string) string {
			if r, ok := vals[p[1:len(p)-1]]; ok {
				return r
			}
			return p // Check refused it at load; left as written
		})
		out = append(out, NotOption(a, s))
	}
	return out
}

// NotOption keeps s from reading as an option when its template did not:
// mail text is not trusted, and "--help" as a subject must stay text.
func NotOption(template, s string) string {
	if strings.HasPrefix(s, "-") && !strings.HasPrefix(template, "-") {
		return " " + s
	}
	return s
}

// markup escapes the three characters that notification markup reads:
// notify-send's body is markup (the Desktop Notifications spec), and a
// subject like "<b>" or "Q&A" must show as written, not fail to parse.
var markup = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Escape makes s safe inside notification markup.
func Escape(s string) string { return markup.Replace(s) }
