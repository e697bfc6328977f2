package serveimap

import (
	"bufio"
	"bytes"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-message/textproto"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
)

// listFields are the header fields fetch_bodies reads beside a message's
// text: what the contacts index tells lists, newsletters and robots by
// (contact.BulkAddresses). Without them only an opened message marked
// its list, and a newsletter fetched in the background ranked as a
// person who wrote.
var listFields = []string{"List-Id", "List-Post", "List-Unsubscribe", "Precedence", "Auto-Submitted"}

// maxListHeader caps what one message's list fields may take.
const maxListHeader = 8 << 10

// listSection reads listFields in the BODYSTRUCTURE's FETCH.
var listSection = &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, HeaderFields: listFields, Peek: true,
	Partial: &imap.SectionPartial{Offset: 0, Size: maxListHeader}}

// listHeaders are the list fields of a header block a server sent,
// decoded and made safe as get_message's headers are; a field the server
// added unasked is left out, and a block cut at the cap keeps its whole
// fields.
func listHeaders(raw []byte) []imapwire.Header {
	if len(raw) == 0 {
		return nil
	}
	h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(append(slices.Clip(raw), "\r\n\r\n"...))))
	var out []imapwire.Header
	for f := h.Fields(); f.Next(); {
		i := slices.IndexFunc(listFields, func(n string) bool { return strings.EqualFold(n, f.Key()) })
		if i < 0 {
			continue
		}
		out = append(out, imapwire.Header{Name: listFields[i], Value: mailtext.Header(f.Value())})
	}
	return out
}
