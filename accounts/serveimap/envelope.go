package serveimap

import (
	"bufio"
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/textproto"

	"unibox/accounts/imapwire"
	"unibox/accounts/mailtext"
	"unibox/model"
	"unibox/model/textsafe"
)

// fetchSummary is what a list fetches per message: never a body, so a
// multi-megabyte attachment costs nothing here.
var fetchSummary = &imap.FetchOptions{
	UID: true, Flags: true, Envelope: true, InternalDate: true, RFC822Size: true,
	BodyStructure: &imap.FetchItemBodyStructure{Extended: true},
	BodySection:   []*imap.FetchItemBodySection{referencesSection},
}

// referencesSection is BODY.PEEK[HEADER.FIELDS (REFERENCES LIST-ID)]:
// threading needs References, which no envelope field has (In-Reply-To
// is one), and rules match a mailing list by its List-Id (issue 40).
// Fetched with the envelope, in the same FETCH: the two are tens of bytes
// for most mail (none at all for a message that starts a thread and
// comes from no list).
var referencesSection = &imap.FetchItemBodySection{
	Specifier: imap.PartSpecifierHeader, HeaderFields: []string{"References", "List-Id"}, Peek: true,
}

// maxListID caps a List-Id kept with an envelope (RFC 2919's id is at
// most 255 bytes; a phrase may come before it).
const maxListID = 512

// summaryFields reads References and List-Id from the header block a
// server sent for referencesSection: the first of each, List-Id decoded
// and made safe.
func summaryFields(raw []byte) (references, listID string) {
	if len(raw) == 0 {
		return "", ""
	}
	h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(append(slices.Clip(raw), "\r\n\r\n"...))))
	references = h.Get("References")
	if id := mailtext.Header(h.Get("List-Id")); len(id) <= maxListID {
		listID = strings.TrimSpace(id)
	}
	return references, listID
}

// text makes an envelope string safe: encoded words go-imap could not
// decode (unknown charset, broken base64) get the tolerant decoder; all
// control bytes are dropped.
func text(s string) string {
	if strings.Contains(s, "=?") {
		return mailtext.Header(s)
	}
	return textsafe.Line(s)
}

func address(a imap.Address) imapwire.Address {
	return imapwire.Address{Name: text(a.Name), Address: textsafe.Line(a.Addr())}
}

func addresses(list []imap.Address) []imapwire.Address {
	out := make([]imapwire.Address, 0, len(list))
	for _, a := range list {
		if a.IsGroupStart() || a.IsGroupEnd() {
			continue
		}
		out = append(out, address(a))
	}
	return out
}

// summary converts fetched data into a Message. Missing pieces (no Date,
// no From, no envelope at all) degrade to placeholders, never to failure.
func summary(acct, folder string, uidValidity uint32, b *imapclient.FetchMessageBuffer, extra *imap.FetchItemBodySection) imapwire.Message {
	m := imapwire.Message{
		UID:         uint32(b.UID),
		UIDValidity: uidValidity,
		Size:        uint32(b.RFC822Size),
		To:          []imapwire.Address{},
	}
	m.ID = model.MessageID{Account: acct, Folder: folder, UIDValidity: uidValidity, UID: m.UID}.String()
	date := b.InternalDate
	if env := b.Envelope; env != nil {
		m.Subject = text(env.Subject)
		m.MessageID = textsafe.Line(env.MessageID)
		from := env.From
		if len(from) == 0 {
			from = env.Sender
		}
		if fs := addresses(from); len(fs) > 0 {
			m.From = fs[0]
		}
		m.To = addresses(env.To)
		m.Cc = addresses(env.Cc)
		if !env.Date.IsZero() && env.Date.Year() > 1970 && !implausible(env.Date, b.InternalDate) {
			date = env.Date
		}
	}
	if !date.IsZero() {
		m.Date = date.Format(time.RFC3339)
	}
	m.Seen = hasFlag(b.Flags, imap.FlagSeen)
	m.Flagged = hasFlag(b.Flags, imap.FlagFlagged)
	m.Answered = hasFlag(b.Flags, imap.FlagAnswered)
	m.Forwarded = hasFlag(b.Flags, imap.FlagForwarded)
	m.HasAttachments = hasAttachments(b.BodyStructure)
	m.AttachmentNames = attachmentNames(b.BodyStructure)
	inv, part := invitation(b.BodyStructure)
	m.Invitation, m.CalendarPart = string(inv), part
	m.Threading = threadHeaders(b)
	_, m.ListID = summaryFields(b.FindBodySection(referencesSection))
	if extra != nil {
		m.Headers = extraHeaders(b.FindBodySection(extra), extra.HeaderFields)
	}
	return m
}

// maxExtraHeader caps what one message's extra fields may take.
const maxExtraHeader = 8 << 10

// summaryOptions is fetchSummary with the extra header fields a sync was
// asked for (nil: none).
func summaryOptions(extra []string) (*imap.FetchOptions, *imap.FetchItemBodySection) {
	if len(extra) == 0 {
		return fetchSummary, nil
	}
	section := &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, HeaderFields: extra, Peek: true,
		Partial: &imap.SectionPartial{Offset: 0, Size: maxExtraHeader}}
	o := *fetchSummary
	o.BodySection = []*imap.FetchItemBodySection{referencesSection, section}
	return &o, section
}

// extraHeaders are the asked fields of a header block, decoded and made
// safe, named as asked; a field the server added unasked is left out.
func extraHeaders(raw []byte, asked []string) []imapwire.Header {
	if len(raw) == 0 {
		return nil
	}
	h, _ := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(append(slices.Clip(raw), "\r\n\r\n"...))))
	var out []imapwire.Header
	for f := h.Fields(); f.Next(); {
		i := slices.IndexFunc(asked, func(n string) bool { return strings.EqualFold(n, f.Key()) })
		if i < 0 {
			continue
		}
		out = append(out, imapwire.Header{Name: asked[i], Value: mailtext.Header(f.Value())})
	}
	return out
}

// threadHeaders are the raw threading ids of a message fetched with
// referencesSection (nil when it was not: the caller fetched less). The
// ids are kept only where they are ids; References keeps the first and
// the last 50 (model.MsgIDList), so a 5,000-id header costs the wire
// and the store no more than a long thread does.
func threadHeaders(b *imapclient.FetchMessageBuffer) *imapwire.ThreadHeaders {
	refs := b.FindBodySection(referencesSection)
	if refs == nil && !hasSection(b, referencesSection) {
		return nil
	}
	references, _ := summaryFields(refs)
	t := &imapwire.ThreadHeaders{References: model.MsgIDList(references)}
	if env := b.Envelope; env != nil {
		t.MessageID, _ = model.CleanMsgID(env.MessageID)
		for _, id := range env.InReplyTo {
			if irt, ok := model.CleanMsgID(id); ok {
				t.InReplyTo = irt
				break
			}
		}
	}
	return t
}

// hasSection: the server answered the section, if with no bytes (a
// message without the header may come back as an empty literal or NIL).
func hasSection(b *imapclient.FetchMessageBuffer, want *imap.FetchItemBodySection) bool {
	for _, s := range b.BodySection {
		if s.Section != nil && s.Section.Specifier == want.Specifier && len(s.Section.HeaderFields) == len(want.HeaderFields) {
			return true
		}
	}
	return false
}

// hasFlag reports whether flags hold f in any case: flags and keywords
// are case-insensitive (RFC 3501 section 2.3.2), and servers store a
// keyword as the client that set it spelled it ($forwarded, $FORWARDED).
// go-imap canonicalises the ones it knows as it reads them; this does not
// depend on that.
func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(x imap.Flag) bool { return strings.EqualFold(string(x), string(f)) })
}

// implausible: a Date header more than a day after the message arrived
// (spam dated 2099) would sit at the top of every list sorted newest
// first, for good; the arrival time stands in for it, as for a message
// without a Date.
func implausible(date, arrived time.Time) bool {
	return !arrived.IsZero() && date.After(arrived.Add(24*time.Hour))
}

// maxAttachmentNames bounds what one message adds to a listing and to the
// index: a message of 10,000 tiny parts is a listing's problem otherwise.
const maxAttachmentNames = 64

// attachmentNames are the file names of the parts hasAttachments counts,
// made safe to show (at most maxAttachmentNames).
func attachmentNames(bs imap.BodyStructure) []string {
	if bs == nil {
		return nil
	}
	var names []string
	bs.Walk(func(path []int, part imap.BodyStructure) bool {
		sp, ok := part.(*imap.BodyStructureSinglePart)
		if !ok {
			return true
		}
		if name := textsafe.Line(sp.Filename()); name != "" && len(names) < maxAttachmentNames {
			names = append(names, name)
		}
		return len(names) < maxAttachmentNames
	})
	return names
}

// hasAttachments: any part disposed as an attachment, or a non-text leaf
// with a file name.
func hasAttachments(bs imap.BodyStructure) bool {
	if bs == nil {
		return false
	}
	found := false
	bs.Walk(func(path []int, part imap.BodyStructure) bool {
		sp, ok := part.(*imap.BodyStructureSinglePart)
		if !ok {
			return !found
		}
		if d := sp.Disposition(); d != nil && strings.EqualFold(d.Value, "attachment") {
			found = true
		}
		if sp.Filename() != "" && !strings.EqualFold(sp.Type, "text") {
			found = true
		}
		return !found
	})
	return found
}
