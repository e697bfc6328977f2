package teatest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// fakeNotifySend is notify-send 0.8 as far as its arguments go (libnotify
// 0.8.1's tools/notify-send.c over GLib's option parser, checked by hand
// against the real one; TestFakeNotifySendRules lists the cases): options
// may come before, among and after the positional arguments, "--" ends
// them, and there must be a summary and at most a body. What it would
// show goes to record; a mistake goes to stderr with exit status 1,
// worded as the real one words it.
func fakeNotifySend(args []string, record, stderr io.Writer) int {
	var sent notifySent
	var pos []string
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, format+"\n", a...)
		return 1
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, ok := notifySendLong[name]
			if !ok {
				return fail("Unknown option %s", a)
			}
			if o.takesValue && !hasVal {
				if i+1 >= len(args) {
					return fail("Missing argument for %s", a)
				}
				i++
				val = args[i]
			}
			sent.set(o.short, val)
		case len(a) > 1 && a[0] == '-':
			// A group of short options; each that takes a value takes the
			// next argument, in order.
			for _, c := range a[1:] {
				o, ok := notifySendShort[c]
				if !ok {
					return fail("Unknown option -%c", c)
				}
				val := ""
				if o.takesValue {
					if i+1 >= len(args) {
						return fail("Missing argument for -%c", c)
					}
					i++
					val = args[i]
				}
				sent.set(c, val)
			}
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 || pos[0] == "" {
		return fail("No summary specified.")
	}
	if len(pos) > 2 {
		return fail("Invalid number of options.")
	}
	if u := sent.Urgency; u != "" && u != "low" && u != "normal" && u != "critical" {
		return fail("Unknown urgency %s specified. Known urgency levels: low, normal, critical.", u)
	}
	sent.Summary = pos[0]
	if len(pos) == 2 {
		sent.Body = pos[1]
	}
	b, _ := json.Marshal(sent)
	_, _ = record.Write(append(b, '\n')) // one write: one line in the pipe
	return 0
}

type notifySendOpt struct {
	short      rune
	takesValue bool
}

var notifySendLong = map[string]notifySendOpt{
	"urgency": {'u', true}, "expire-time": {'t', true}, "app-name": {'a', true}, "icon": {'i', true},
	"category": {'c', true}, "transient": {'e', false}, "hint": {'h', true}, "print-id": {'p', false},
	"replace-id": {'r', true}, "wait": {'w', false}, "action": {'A', true}, "version": {'v', false},
}

var notifySendShort = func() map[rune]notifySendOpt {
	m := map[rune]notifySendOpt{}
	for _, o := range notifySendLong {
		m[o.short] = o
	}
	return m
}()

// notifySent is what the fake would have shown: one JSON line each.
type notifySent struct{ App, Summary, Body, Urgency string }

// set keeps the options a test looks at.
func (s *notifySent) set(short rune, val string) {
	switch short {
	case 'a':
		s.App = val
	case 'u':
		s.Urgency = val
	}
}

// fakeNotifySendMain is the test binary run as notify-send: the record
// goes to the file (a named pipe) the environment names.
func fakeNotifySendMain(recordPath string) int {
	f, err := os.OpenFile(recordPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer f.Close()
	return fakeNotifySend(os.Args[1:], f, os.Stderr)
}
