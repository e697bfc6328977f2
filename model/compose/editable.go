package compose

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"unibox/model"
)

// ErrNoRecipient is a draft with nobody in To, Cc or Bcc.
var ErrNoRecipient = errors.New("no recipient: To, Cc and Bcc are all empty")

// LineError is a line of the editor's text that cannot be read: Line is
// 1-based, Text the line as written; Error quotes it, controls escaped.
type LineError struct {
	Line int
	Text string
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("line %d %q: %v", e.Line, e.Text, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// Why a header line is refused; each is wrapped in a *LineError.
var (
	ErrUnknownHeader = errors.New("not one of From, To, Cc, Bcc, Subject, Attach (a header only unibox writes cannot be added here)")
	ErrContinuation  = errors.New("a continuation line is not accepted: write the whole value on one line")
	ErrDuplicate     = errors.New("this header is given twice")
	ErrControl       = errors.New("the value holds a control character (CR, LF or another)")
	ErrBadAddress    = errors.New("an address does not parse")
	ErrNoPath        = errors.New("Attach: names no file")
	ErrAttachedTwice = errors.New("this file is attached twice")
)

var errLongWord = fmt.Errorf("a word over %d characters without a space cannot be written in a header line", maxWordLen)

// editable are the header lines the editor gets, in order; no other header
// line is read back. Attach may come any number of times, one file each.
var editable = []string{"From", "To", "Cc", "Bcc", "Subject", "Attach"}

// Editable is the text the editor gets: the From, To, Cc, Bcc and Subject
// lines (always all five, possibly empty), an Attach line per file
// attached, a blank line, then the body.
// Every value went through textsafe.Line on its way into the draft, and
// goes through it again here, so no CR or LF from mail can start a header
// line of its own. Its lines end in LF, the body's too (vi showed a CRLF
// file as [dos]): CRLF is for the wire only (Prepare).
func (d Draft) Editable() string {
	var b strings.Builder
	b.WriteString("From: " + formatAddress(cleanAddress(d.From)) + "\n")
	b.WriteString("To: " + formatList(cleanList(d.To)) + "\n")
	b.WriteString("Cc: " + formatList(cleanList(d.Cc)) + "\n")
	b.WriteString("Bcc: " + formatList(cleanList(d.Bcc)) + "\n")
	b.WriteString("Subject: " + cleanLine(d.Subject) + "\n")
	for _, p := range d.Attach {
		b.WriteString("Attach: " + cleanLine(p) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(LF(d.Body))
	return b.String()
}

// LF is text with its CRLF line ends made LF: how the editor's file is
// kept, whichever line ends the text came with.
func LF(text string) string { return strings.ReplaceAll(text, "\r\n", "\n") }

// Parse reads the editor's text back onto base: the five header lines
// (in any order, any case, each at most once, a missing one empty) and
// any number of Attach lines (each a file, once; into Attach as written)
// up to the first blank line, then the body. An editor may save LF or CRLF
// line ends: either reads the same (the body with LF). Kind, InReplyTo, References and
// Attachments stay base's: the editor cannot change threading. A line that
// is not one of those headers, a continuation line, a value with a
// control character, an address that does not parse or a From that is not
// exactly one address is refused as a *LineError; no recipient at all is
// ErrNoRecipient. A deleted From line means base's From.
func Parse(text string, base Draft) (Draft, error) {
	d := Draft{Kind: base.Kind, InReplyTo: base.InReplyTo, References: base.References, Attachments: base.Attachments, RSVP: base.RSVP}
	seen := map[string]bool{}
	rest := text
	n := 0
	for {
		var line string
		var more bool
		line, rest, more = strings.Cut(rest, "\n")
		n++
		line = strings.TrimSuffix(line, "\r") // an editor saving CRLF endings
		if line == "" {
			break
		}
		if err := readHeader(&d, seen, line); err != nil {
			return Draft{}, &LineError{Line: n, Text: line, Err: err}
		}
		if !more {
			rest = ""
			break
		}
	}
	d.Body = LF(rest)
	if !seen["from"] {
		d.From = base.From // a deleted From line means the account's own
	}
	if len(d.To)+len(d.Cc)+len(d.Bcc) == 0 {
		return Draft{}, ErrNoRecipient
	}
	return d, nil
}

// readHeader reads one header line onto d.
func readHeader(d *Draft, seen map[string]bool, line string) error {
	if line[0] == ' ' || line[0] == '\t' {
		return ErrContinuation
	}
	name, value, ok := strings.Cut(line, ":")
	key := strings.ToLower(strings.TrimSpace(name))
	if !ok || !isEditable(key) {
		return ErrUnknownHeader
	}
	if key == "attach" {
		key = "attach " + strings.TrimSpace(value) // one line per file
	}
	if seen[key] {
		if strings.HasPrefix(key, "attach ") {
			return ErrAttachedTwice
		}
		return ErrDuplicate
	}
	seen[key] = true
	if !utf8.ValidString(value) {
		return errors.New("the value is not valid UTF-8")
	}
	if strings.ContainsRune(value, '\r') || hasControl(value) {
		return ErrControl
	}
	value = strings.TrimSpace(value)
	if strings.HasPrefix(key, "attach ") {
		if value == "" {
			return ErrNoPath
		}
		d.Attach = append(d.Attach, value)
		return nil
	}
	if key == "subject" {
		if longWord(value) {
			return errLongWord
		}
		d.Subject = value
		return nil
	}
	list, err := parseList(value)
	if err != nil {
		return err
	}
	switch key {
	case "from":
		if len(list) != 1 {
			return fmt.Errorf("From must be exactly one address, not %d", len(list))
		}
		d.From = list[0]
	case "to":
		d.To = list
	case "cc":
		d.Cc = list
	case "bcc":
		d.Bcc = list
	}
	return nil
}

func isEditable(key string) bool {
	for _, h := range editable {
		if strings.ToLower(h) == key {
			return true
		}
	}
	return false
}

// parseList reads "a@b, Name <c@d>" with net/mail; an empty value is no
// address. When the list does not parse, each comma-separated piece is
// tried alone so the error can name the address at fault.
func parseList(value string) ([]model.Address, error) {
	if value == "" {
		return nil, nil
	}
	addrs, err := mail.ParseAddressList(value)
	if err != nil {
		return nil, fmt.Errorf("%w: %q (%v)", ErrBadAddress, badPiece(value), err)
	}
	out := make([]model.Address, len(addrs))
	for i, a := range addrs {
		if hasControl(a.Name) { // net/mail decodes =?..?= words in names
			return nil, fmt.Errorf("%w: in the name of %q", ErrControl, a.Address)
		}
		if err := checkLengths(model.Address{Name: a.Name, Address: a.Address}); err != nil {
			return nil, err
		}
		if !plainAddress(a.Address) {
			return nil, fmt.Errorf("%w: %q (a quoted local part cannot go in an SMTP command as unibox sends it)", ErrBadAddress, a.Address)
		}
		out[i] = model.Address{Name: a.Name, Address: a.Address}
	}
	return out, nil
}

// badPiece is the first comma-separated piece of value that is not an
// address; a comma inside a quoted name does not end a piece.
func badPiece(value string) string {
	pending := ""
	for _, piece := range strings.Split(value, ",") {
		if pending != "" {
			pending += ","
		}
		pending += piece
		if strings.Count(pending, `"`)%2 == 1 {
			continue // inside a quoted name
		}
		if _, err := mail.ParseAddress(strings.TrimSpace(pending)); err != nil {
			return strings.TrimSpace(pending)
		}
		pending = ""
	}
	if p := strings.TrimSpace(pending); p != "" {
		return p
	}
	return value
}

// Peek reads what a list of drafts shows of one: its From, recipients
// and subject (in a Draft with no body), from the editor's text,
// leniently. A draft still being written may have no recipient, or a
// line Parse would refuse: Peek skips such a line instead of failing,
// since it only labels the draft.
func Peek(text string) Draft {
	var d Draft
	seen := map[string]bool{}
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		_ = readHeader(&d, seen, line) // a bad line labels nothing
	}
	return d
}

// WithAttach is the editor's text with an Attach line for written added
// at the end of its header block (what the review's attach key does), the
// rest byte for byte. A path the block names already is ErrAttachedTwice;
// one with a control character, which no header line may hold, is
// ErrControl; an empty one ErrNoPath.
func WithAttach(text, written string) (string, error) {
	written = strings.TrimSpace(written)
	switch {
	case written == "":
		return "", ErrNoPath
	case hasControl(written) || strings.ContainsAny(written, "\r\n") || !utf8.ValidString(written):
		return "", ErrControl
	}
	at := len(text) // no blank line: the whole text is its header block
	for off := 0; off < len(text); {
		line, _, _ := strings.Cut(text[off:], "\n")
		if strings.TrimSuffix(line, "\r") == "" {
			at = off
			break
		}
		if name, value, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(name), "attach") &&
			strings.TrimSpace(strings.TrimSuffix(value, "\r")) == written {
			return "", ErrAttachedTwice
		}
		off += len(line) + 1
	}
	head := text[:at]
	if head != "" && !strings.HasSuffix(head, "\n") {
		head += "\n" // a last header line with no line end
	}
	return head + "Attach: " + written + "\n" + text[at:], nil
}
