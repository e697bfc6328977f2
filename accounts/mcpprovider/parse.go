package mcpprovider

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"unibox/accounts/mailtext"
	"unibox/model"
	"unibox/model/textsafe"
)

// parsed is one message as a server described it, before it gets its id.
type parsed struct {
	uid    uint32
	folder string // set when the server names the message's folder
	msg    model.Message
	// flagsKnown is false when the answer said nothing about flags (the
	// zero Seen and Flagged are then not facts).
	flagsKnown bool
}

// listing is one listing answer.
type listing struct {
	msgs  []parsed
	total int // messages in the folder, when the server said; else 0
}

// parsedBody is one message opened for reading.
type parsedBody struct {
	parsed
	text        string
	fromHTML    bool
	headers     []model.Header
	attachments []model.Attachment
	problems    []string
}

// errNoMessage is a get answer that holds no message (JSON null, []).
var errNoMessage = errors.New("the answer holds no message")

// Answers come in two dialects: JSON (mcp-mail-server and most newer
// servers) and email-mcp's human text. The first character tells which,
// so an account mapped by hand to either kind of tool needs no setting.
func looksJSON(text string) bool {
	t := strings.TrimSpace(text)
	return jsonStart().MatchString(t) && !uidBracket().MatchString(t) || t == "null"
}

// jsonStart is an object, or an array whose first element could be JSON
// (not email-mcp's "[INBOX] 3 emails" or "[42] subject").
var jsonStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\{|\[\s*(?:[\[{"\-0-9\]]|true|false|null))`) })

// parseListing reads a list or search answer.
func parseListing(text string) (listing, error) {
	if looksJSON(text) {
		return parseJSONListing(text)
	}
	return parseTextListing(text)
}

// parseBody reads a get answer.
func parseBody(text string) (parsedBody, error) {
	if looksJSON(text) {
		return parseJSONBody(text)
	}
	return parseTextBody(text)
}

// parseFolders reads a folders answer.
func parseFolders(text string) ([]model.Folder, error) {
	if looksJSON(text) {
		return parseJSONFolders(text)
	}
	return parseTextFolders(text)
}

// parseUID reads a uid: a positive decimal number that fits 32 bits.
func parseUID(s string) (uint32, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
	if err != nil || n == 0 {
		return 0, errors.New("not a uid: " + strconv.Quote(textsafe.Line(s)))
	}
	return uint32(n), nil
}

// address reads one "Name <addr>" (or bare address, or bare name),
// sanitised; mailtext copes with quoting, encoded words and junk.
func address(s string) model.Address {
	s = strings.TrimSpace(s)
	if s == "" {
		return model.Address{}
	}
	if list := mailtext.Addresses(s); len(list) > 0 {
		return model.Address{Name: list[0].Name, Address: list[0].Address}
	}
	if strings.Contains(s, "@") {
		return model.Address{Address: textsafe.Line(s)}
	}
	return model.Address{Name: textsafe.Line(s)}
}

// addresses reads an address list.
func addresses(s string) []model.Address {
	var out []model.Address
	for _, a := range mailtext.Addresses(s) {
		out = append(out, model.Address{Name: a.Name, Address: a.Address})
	}
	return out
}

// date reads a date in any of the forms servers print (ISO 8601 from
// JavaScript's Date, RFC 5322 headers); unreadable is the zero time.
func date(s string) time.Time {
	t, ok := mailtext.Date(s)
	if !ok {
		return time.Time{}
	}
	return t
}

// specialUse maps an IMAP special-use attribute (\Archive, Trash, ...) to
// model.Folder's names.
func specialUse(attr string) string {
	switch a := strings.ToLower(strings.TrimLeft(strings.TrimSpace(attr), `\`)); a {
	case model.SpecialArchive, model.SpecialTrash, model.SpecialJunk, model.SpecialSent, model.SpecialDrafts:
		return a
	case "spam":
		return model.SpecialJunk
	}
	return ""
}
