package drafting

import (
	"cmp"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"unibox/accounts/send/outbox"
	"unibox/model/compose"
)

// Limit is the largest message an account's server takes, in Bytes (0:
// no fixed limit), and whether its server said so (Known: the SIZE it
// last announced, outbox.Box.SMTPSize) or it is DefaultLimit.
type Limit struct {
	Bytes int64
	Known bool
}

// DefaultLimit is the limit before an account's server has said: 25 MB,
// what Gmail and Outlook take.
var DefaultLimit = Limit{Bytes: 25 << 20}

// SizeLimit is account's limit: the SIZE its server last announced, as
// the outbox remembers it, else DefaultLimit.
func SizeLimit(box *outbox.Box, account string) Limit {
	if n, ok := box.SMTPSize(account); ok {
		return Limit{Bytes: n, Known: true}
	}
	return DefaultLimit
}

// Words names the limit and where it comes from, for a refusal.
func (l Limit) Words() string {
	if l.Known {
		return "the " + SizeWords(l.Bytes) + " the account's server takes (its SMTP SIZE)"
	}
	return "the " + SizeWords(l.Bytes) + " taken as the limit until the account's server says (SMTP SIZE)"
}

// Attach turns d's Attach lines into parts after d's own (a forward's):
// each the copy kept in draft id's folder (outbox.Box.KeepFile), made now
// from the file when the line has none yet, so that what is reviewed is
// what is sent however the file changes later. A line whose file cannot
// be attached (missing, unreadable, not a regular file, too big for
// limit) is left out and the first such is the error, an *AttachError
// naming its line; the other lines are attached all the same and the
// text is untouched: nothing else of the draft is lost. Copies no line
// names any more are removed. It reads files: run it off the UI's loop.
func Attach(box *outbox.Box, id string, d compose.Draft, limit Limit) (compose.Draft, error) {
	parts := append([]compose.Part(nil), d.Attachments...)
	var first error
	for _, written := range d.Attach {
		p, err := AttachFile(box, id, written, limit)
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		parts = append(parts, p)
	}
	d.Attachments = parts
	if err := box.PruneFiles(id, d.Attach); err != nil {
		first = cmp.Or(first, err)
	}
	return d, first
}

// AttachFile is the part the file written names makes in draft id: its
// copy, made now (OpenFile's checks, then the copy, 0600) unless the
// draft has one, read back with its name, the type its content shows
// and its bytes.
func AttachFile(box *outbox.Box, id, written string, limit Limit) (compose.Part, error) {
	copyPath, ok := box.KeptFile(id, written)
	if !ok {
		f, size, err := OpenFile(written, limit)
		if err != nil {
			return compose.Part{}, err
		}
		bound := size
		if limit.Bytes > 0 {
			bound = max(size, largestFile(limit.Bytes)) // it may grow a little, never past what could go
		}
		copyPath, err = box.KeepFile(id, written, f, bound)
		f.Close()
		if err != nil {
			return compose.Part{}, &AttachError{Path: written, Err: err}
		}
	}
	data, err := os.ReadFile(copyPath)
	if err != nil {
		return compose.Part{}, &AttachError{Path: written, Err: fmt.Errorf("its copy: %w", err)}
	}
	return compose.Part{Name: compose.FileName(filepath.Base(written)), Type: Sniff(data), Data: data, Path: written}, nil
}

// largestFile is the most bytes whose encoding fits in limit.
func largestFile(limit int64) int64 {
	n := limit / 4 * 3
	for n > 0 && EncodedSize(n) > limit {
		n -= 57
	}
	return max(n, 0)
}

// Sniff is the media type data's content shows (net/http's sniffing, the
// WHATWG algorithm), never the name's: a text that is not UTF-8 goes
// without a charset rather than with a wrong one.
func Sniff(data []byte) string {
	t := http.DetectContentType(data)
	mt, params, err := mime.ParseMediaType(t)
	if err != nil {
		return "application/octet-stream"
	}
	if params["charset"] == "utf-8" && !utf8.Valid(data) {
		return mt
	}
	return t
}

// Fits refuses a message too big for limit as it will go, encoded: what
// the review checks before anything is sent. The date it is prepared
// with only fills a header of fixed length. A draft that cannot be
// prepared is not this check's to refuse (the send says why).
func Fits(d compose.Draft, limit Limit) error {
	if limit.Bytes <= 0 {
		return nil
	}
	p, err := d.Prepare(time.Now())
	if err != nil {
		return nil
	}
	if n := int64(len(p.Wire)); n > limit.Bytes {
		return fmt.Errorf("%w: the message is %s once encoded, over %s", ErrTooBig, SizeWords(n), limit.Words())
	}
	return nil
}
