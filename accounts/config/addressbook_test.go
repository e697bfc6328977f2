package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"unibox/model/contact"
)

// address_book_cmd is read as an argument list with exactly one whole
// argument {query}; anything else is an error naming file, line and key.
func TestAddressBookCmdConfig(t *testing.T) {
	c, err := Parse("t.toml", []byte("[[account]]\n"+imapOK+"[compose]\naddress_book_cmd = [\"khard\", \"email\", \"--parsable\", \"{query}\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Compose.AddressBookCmd, []string{"khard", "email", "--parsable", "{query}"}) || c.Compose.AddressBook() == nil {
		t.Fatalf("read %q", c.Compose.AddressBookCmd)
	}
	if none, err := Parse("t.toml", []byte("[[account]]\n"+imapOK)); err != nil || none.Compose.AddressBook() != nil {
		t.Fatalf("no address_book_cmd: %v, %v", none.Compose.AddressBook(), err)
	}
	for _, tt := range []struct{ name, value, want string }{
		{"no placeholder", `["khard", "email"]`, "t.toml:7: compose.address_book_cmd: no argument is {query}"},
		{"two", `["book", "{query}", "{query}"]`, "t.toml:7: compose.address_book_cmd: 2 arguments are {query}"},
		{"part of an argument", `["book", "--search={query}"]`, `t.toml:7: compose.address_book_cmd: element 2: {query} must be a whole argument, not part of "--search={query}"`},
		{"the program", `["{query}", "x"]`, "t.toml:7: compose.address_book_cmd: element 1 is the program"},
		{"empty", `[]`, "t.toml:7: compose.address_book_cmd: needs a program"},
		{"not a list", `"khard email {query}"`, "t.toml:7: compose.address_book_cmd: must be an array of strings"},
		{"control characters", `["book", "{query}", "a\u001b[2Jb"]`, "t.toml:7: compose.address_book_cmd: contains control characters"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte("[[account]]\n"+imapOK+"[compose]\naddress_book_cmd = "+tt.value+"\n"))
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant %s...", err, tt.want)
			}
		})
	}
}

// book is address_book_cmd running script under sh, the query as $1.
func book(t *testing.T, script string, timeout time.Duration) addressBook {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh here")
	}
	if err := checkAddressBookCmd([]string{"sh", "-c", script, "sh", QueryPlaceholder}); err != nil {
		t.Fatal(err)
	}
	return addressBook{argv: []string{"sh", "-c", script, "sh", QueryPlaceholder}, timeout: timeout}
}

// A real child answers: its aerc-style lines become contacts (the name
// made one safe line, extra columns and lines that are no address
// skipped), the typed text reaching it as one argument, as typed; exit 1
// with nothing printed is none found, any other failure an error with
// the end of its stderr.
func TestAddressBookLookup(t *testing.T) {
	b := book(t, `[ "$#" = 1 ] || { echo "got $# arguments" >&2; exit 9; }
printf 'searching for "%s"...\n' "$1"
printf 'ann@example.org\tAnn Keller\thome\n'
printf 'bob@example.org\tBob \033[31mRed\033]0;title\007\n'
printf 'not an address\tX\n'
printf 'a b@example.org\tSpaces\n'
printf 'carl@example.org\n'
printf '%s@example.org\tquery\n' "$1"`, 5*time.Second)
	got, err := b.Lookup(t.Context(), " ann smith ", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []contact.Contact{{Address: "ann@example.org", Name: "Ann Keller"}, {Address: "bob@example.org", Name: "Bob Red"},
		{Address: "carl@example.org"}}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if got, _ := b.Lookup(t.Context(), "ann", 2); len(got) != 2 {
		t.Fatalf("limit 2: %+v", got)
	}
	if got, err := b.Lookup(t.Context(), "zed", 10); err != nil || len(got) != 4 || got[3].Address != "zed@example.org" {
		t.Fatalf("the query as typed: %+v, %v", got, err)
	}

	none := book(t, `exit 1`, 5*time.Second)
	if got, err := none.Lookup(t.Context(), "x", 10); err != nil || len(got) != 0 {
		t.Fatalf("exit 1, nothing printed: %+v, %v", got, err)
	}
	broken := book(t, `echo 'no such address book: work' >&2; exit 3`, 5*time.Second)
	if _, err := broken.Lookup(t.Context(), "x", 10); err == nil || !strings.Contains(err.Error(), "failed (exit status 3): no such address book: work") {
		t.Fatalf("a failure: %v", err)
	}
	missing := addressBook{argv: []string{"/nonexistent/khard", QueryPlaceholder}, timeout: time.Second}
	if _, err := missing.Lookup(t.Context(), "x", 10); err == nil || !strings.Contains(err.Error(), "cannot run") {
		t.Fatalf("a missing program: %v", err)
	}
}

// Typed text that would start an option, or holds a control character,
// is never passed: the command does not run for it.
func TestAddressBookNeverGetsAnOption(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	b := book(t, `echo "$1" >> `+marker+`; echo "x@example.org	X"`, 5*time.Second)
	for _, q := range []string{"-rf", "--help", " -x", "a\x1bb", "", "   "} {
		got, err := b.Lookup(t.Context(), q, 10)
		if err != nil || len(got) != 0 {
			t.Fatalf("%q: %+v, %v", q, got, err)
		}
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		data, _ := os.ReadFile(marker)
		t.Fatalf("the command ran for: %q", data)
	}
	if got, err := b.Lookup(t.Context(), "a-b", 10); err != nil || len(got) != 1 {
		t.Fatalf("a dash inside is text: %+v, %v", got, err)
	}
}

// The child gets only the variables addressBookEnv names: a secret
// beside them never reaches it.
func TestAddressBookEnvironment(t *testing.T) {
	t.Setenv("UNIBOX_PASSWORD_CANARY", "hunter2")
	t.Setenv("HOME", "/home/alice")
	t.Setenv("XDG_CONFIG_HOME", "/home/alice/.config")
	b := book(t, `env | while IFS='=' read -r k v; do printf '%s@env.example\t%s\n' "$k" "$v"; done`, 5*time.Second)
	got, err := b.Lookup(t.Context(), "x", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		name, _, _ := strings.Cut(c.Address, "@")
		if name == "PWD" || name == "SHLVL" || name == "_" {
			continue // sh sets these itself
		}
		if !slices.Contains(addressBookEnv, name) || strings.Contains(c.Name, "hunter2") {
			t.Errorf("the child has %s=%s", name, c.Name)
		}
	}
	if !slices.ContainsFunc(got, func(c contact.Contact) bool { return c.Address == "HOME@env.example" && c.Name == "/home/alice" }) {
		t.Fatalf("HOME did not reach it: %+v", got)
	}
}

// A book that hangs is killed at its bound with what it started (its
// process group), and the lookup returns then; one that prints without
// end is read no further than its bound.
func TestAddressBookBounds(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	b := book(t, `sleep 60 & echo $! > `+pidFile+`; wait`, 300*time.Millisecond)
	start := time.Now()
	_, err := b.Lookup(t.Context(), "x", 10)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "killed after") {
		t.Fatalf("a hung book: %v", err)
	}
	if took > 300*time.Millisecond+addressBookGrace+2*time.Second {
		t.Fatalf("returned after %s", took)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	deadline := time.Now().Add(10 * time.Second) // a failure bound: SIGKILL is at once
	for syscall.Kill(pid, 0) == nil {
		if state, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(state), ") Z ") {
			break // killed, not yet reaped by its new parent
		}
		if time.Now().After(deadline) {
			t.Fatalf("the book's child %d outlived it", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}

	flood := book(t, `while :; do printf 'a@example.org\tA\n'; done`, 300*time.Millisecond)
	got, err := flood.Lookup(t.Context(), "x", 10000)
	if err == nil && len(got) > addressBookEntries {
		t.Fatalf("%d entries from a flood", len(got))
	}
}

// Checked at the bound: the real AddressBookTimeout is the 2 s.
func TestAddressBookTimeoutIsTwoSeconds(t *testing.T) {
	if AddressBookTimeout != 2*time.Second {
		t.Fatalf("AddressBookTimeout %s", AddressBookTimeout)
	}
	if b, ok := (Compose{AddressBookCmd: []string{"k", QueryPlaceholder}}).AddressBook().(addressBook); !ok || b.timeout != AddressBookTimeout {
		t.Fatalf("the book's bound: %+v", b)
	}
}
