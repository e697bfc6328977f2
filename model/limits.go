package model

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// The sizes unibox accepts from outside (an agent's tool call, a typed
// search) before anything is sent to a mail server. Without them a 300 KB
// query reached Dovecot as one command line, Dovecot reset the connection
// ("IMAP command line too large", imap_max_line_length = 64k), and the
// account cooled down for everyone; a 2 MB id was echoed back twice, and
// 200,000 ids took 11.6 s to refuse one by one.
const (
	// MaxQueryBytes caps a search query. It goes into a SEARCH command
	// line three times (FROM, SUBJECT, BODY); RFC 2683 3.2.1.5 asks
	// clients to keep a command line near 1000 octets, and a person's
	// search is a few words.
	MaxQueryBytes = 1024
	// MaxFolderBytes caps a folder name. Dovecot stores a mailbox as a
	// directory, and a file name is at most 255 bytes on every common
	// filesystem (NAME_MAX); no real folder is longer.
	MaxFolderBytes = 255
	// MaxIDsPerCall caps the ids of one write. A write of n ids is one
	// UID set per folder, and the TUI's largest selection is a few
	// hundred; more is a runaway loop, not triage.
	MaxIDsPerCall = 1000
	// MaxIDBytes caps one message id: an account name, a folder name and
	// two numbers of up to 10 digits, path-escaped. Real ids are well
	// under 100 bytes; 512 leaves room for a long folder name with a few
	// escaped characters.
	MaxIDBytes = 512
)

// ErrTooLarge marks an input refused for its size; errors.Is finds it
// under every LimitError.
var ErrTooLarge = errors.New("over the limit")

// LimitError is an input over its limit. It names the field and the
// limit and never carries the input itself: echoing a huge input back
// is the harm the limit prevents.
type LimitError struct {
	Field string // the input's name as the caller knows it: "query", "ids[3]"
	Got   int    // its size in Unit
	Limit int
	Unit  string // "bytes" or "ids"
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %d %s, over the limit of %d %s", e.Field, e.Got, e.Unit, e.Limit, e.Unit)
}

func (e *LimitError) Unwrap() error { return ErrTooLarge }

// CheckBytes refuses s when it is longer than limit bytes.
func CheckBytes(field, s string, limit int) error {
	if len(s) > limit {
		return &LimitError{Field: field, Got: len(s), Limit: limit, Unit: "bytes"}
	}
	return nil
}

// CheckCount refuses n items (unit: "ids") when there are more than limit.
func CheckCount(field string, n, limit int, unit string) error {
	if n > limit {
		return &LimitError{Field: field, Got: n, Limit: limit, Unit: unit}
	}
	return nil
}

// quoteMax is how many bytes of an input an error may quote.
const quoteMax = 40

// Quote is s as an error may show it: Go-quoted (control, format and
// bidi characters escaped, so it cannot restyle a terminal or reorder a
// line) and cut to its first quoteMax bytes, saying how long it was.
func Quote(s string) string {
	if len(s) <= quoteMax {
		return strconv.Quote(s)
	}
	cut := quoteMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}
