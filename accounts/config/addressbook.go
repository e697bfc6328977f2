package config

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"unibox/model"
	"unibox/model/contact"
	"unibox/model/textsafe"
)

// address_book_cmd (issue 38): an external address book (khard, a
// CardDAV query) asked as the person types a recipient, its answer merged
// with the contacts index's. It runs as signature_cmd does: no shell, no
// terminal, an explicit minimal environment, killed with its process
// group at its bound, its output bounded and every line of it checked.

// AddressBookTimeout bounds address_book_cmd: a recipient is being
// typed, and a slow book must not hold the completion.
const AddressBookTimeout = 2 * time.Second

// QueryPlaceholder is the argument of address_book_cmd that the typed
// text replaces.
const QueryPlaceholder = "{query}"

// Bounds of one run's output: more than any book's answer to a prefix.
const (
	addressBookOutput  = 256 << 10
	addressBookEntries = 500
	addressBookGrace   = 200 * time.Millisecond // pipes held open past the exit
)

// addressBookEnv is all of the parent's environment the book gets: where
// programs are, the home folder and the XDG folders its own config and
// data live in (khard's, vdirsyncer's), and the locale its output is
// written in. Never the whole environment, which may hold a password
// (password_env) or a token.
var addressBookEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"}

// checkAddressBookCmd says what is wrong with an address_book_cmd list:
// exactly one whole argument, not the program, is the placeholder (the
// typed text is then always one argument, never a part of one or of the
// program's name).
func checkAddressBookCmd(argv []string) error {
	n := 0
	for i, a := range argv {
		switch {
		case a == QueryPlaceholder && i == 0:
			return fmt.Errorf("element 1 is the program, run as written: %s goes in an argument of its own", QueryPlaceholder)
		case a == QueryPlaceholder:
			n++
		case strings.Contains(a, QueryPlaceholder):
			return fmt.Errorf("element %d: %s must be a whole argument, not part of %q", i+1, QueryPlaceholder, a)
		}
	}
	switch n {
	case 0:
		return fmt.Errorf("no argument is %s (where the typed text goes), like [\"khard\", \"email\", \"--parsable\", \"%s\"]", QueryPlaceholder, QueryPlaceholder)
	case 1:
		return nil
	}
	return fmt.Errorf("%d arguments are %s; one is where the typed text goes", n, QueryPlaceholder)
}

// AddressBook is address_book_cmd as a contact.Book; nil when it is not
// set.
func (c Compose) AddressBook() contact.Book {
	if len(c.AddressBookCmd) == 0 {
		return nil
	}
	return addressBook{argv: c.AddressBookCmd, timeout: AddressBookTimeout}
}

type addressBook struct {
	argv    []string
	timeout time.Duration
}

// Lookup runs the command with the typed text in place of {query}. A
// query that is empty, holds a control character, or starts with "-"
// (the program would read it as an option) is not asked: no answer, no
// error. Exit status 1 with nothing printed is "none found" (khard's and
// grep's way of saying so).
func (b addressBook) Lookup(ctx context.Context, query string, limit int) ([]contact.Contact, error) {
	query = strings.TrimSpace(query)
	if query == "" || strings.HasPrefix(query, "-") || hasControl(query) {
		return nil, nil
	}
	argv := make([]string, len(b.argv))
	for i, a := range b.argv {
		argv[i] = a
		if a == QueryPlaceholder {
			argv[i] = query
		}
	}
	out, err := runAddressBook(ctx, argv, b.timeout)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", model.Quote(strings.Join(b.argv, " ")), err)
	}
	return parseAddressBook(out, min(max(limit, 0), addressBookEntries)), nil
}

// runAddressBook runs argv within timeout and returns what it printed.
func runAddressBook(ctx context.Context, argv []string, timeout time.Duration) ([]byte, error) {
	out, err := boundedCmd{env: addressBookEnv, timeout: timeout, maxOut: addressBookOutput, grace: addressBookGrace}.run(ctx, argv)
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 && len(bytes.TrimSpace(out)) == 0 {
		return nil, nil // none found (khard's answer)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parseAddressBook reads "address<TAB>name[<TAB>anything]" lines (aerc's
// convention; khard --parsable adds a type), at most limit of them. A
// line whose address is not one (no @, spaces, control characters, too
// long: a header line, a message) is skipped; names are made one safe
// line.
func parseAddressBook(out []byte, limit int) []contact.Contact {
	var got []contact.Contact
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 4096), addressBookOutput)
	for sc.Scan() && len(got) < limit {
		addr, rest, _ := strings.Cut(sc.Text(), "\t")
		name, _, _ := strings.Cut(rest, "\t")
		addr = strings.TrimSpace(addr)
		if !plausibleAddress(addr) {
			continue
		}
		got = append(got, contact.Contact{Address: addr, Name: textsafe.Line(strings.TrimSpace(name))})
	}
	return got
}

// plausibleAddress: local@domain, printable, no spaces, at most RFC
// 5321's 254 bytes.
func plausibleAddress(a string) bool {
	at := strings.LastIndexByte(a, '@')
	return at > 0 && at < len(a)-1 && len(a) <= 254 && !hasControl(a) && !strings.ContainsAny(a, " \t<>\"") && textsafe.Line(a) == a
}
