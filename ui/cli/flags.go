package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"unibox/accounts"
	"unibox/ui/launch"
)

// faceFlags are the flags every script face takes: --json, --account
// (repeatable), --timeout, --config and --demo; a face adds its own to fs.
type faceFlags struct {
	face, usage string
	stderr      io.Writer
	fs          *flag.FlagSet
	json        bool
	names       stringList
	timeout     time.Duration
	path        string
	demo        bool
}

func newFaceFlags(face, usage string, stderr io.Writer) *faceFlags {
	f := newOfflineFlags(face, usage, stderr)
	f.fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "deadline per account")
	return f
}

// newOfflineFlags are the flags of a face that never dials (search):
// all of faceFlags but --timeout.
func newOfflineFlags(face, usage string, stderr io.Writer) *faceFlags {
	f := &faceFlags{face: face, usage: usage, stderr: stderr, fs: flag.NewFlagSet(face, flag.ContinueOnError)}
	f.fs.SetOutput(stderr)
	f.fs.BoolVar(&f.json, "json", false, "print JSON")
	f.fs.Var(&f.names, "account", "only this account (repeatable)")
	f.fs.StringVar(&f.path, "config", "", "config file")
	f.fs.BoolVar(&f.demo, "demo", false, "use the built-in demo accounts")
	return f
}

// parse reads args; valid (if any) checks the face's own flags. On a bad command
// line it prints the usage (flag prints its own error) and returns false.
func (f *faceFlags) parse(args []string, valid func() bool) bool {
	if err := f.fs.Parse(args); err != nil {
		return false
	}
	if f.fs.NArg() > 0 || f.timeout <= 0 || valid != nil && !valid() {
		fmt.Fprintln(f.stderr, f.usage)
		return false
	}
	return true
}

// open opens the config (or the demo) and picks the named accounts (all
// when none are named); a name matching no account is a usage error.
func (f *faceFlags) open(mode launch.StoreMode) (*launch.Env, []*accounts.Account, int) {
	env, code := launch.OpenFaceWith(f.path, f.demo, mode, f.stderr)
	if env == nil {
		return nil, nil, code
	}
	accts, err := pick(env.Set, f.names)
	if err != nil {
		env.Close()
		fmt.Fprintf(f.stderr, "unibox %s: %v\n", f.face, err)
		return nil, nil, launch.ExitUsage
	}
	return env, accts, launch.ExitOK
}

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// printAccounts prints a face's per-account lines: as JSON,
// {"accounts": rows}, or as a table of header and one line per row.
func printAccounts[T any](w io.Writer, asJSON bool, rows []T, header string, line func(T) string) {
	if asJSON {
		_ = writeJSON(w, map[string]any{"accounts": rows})
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, line(r))
	}
	tw.Flush()
}

// writeJSON prints v as every face's --json does: indented by two
// spaces, one value, a newline after it.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
