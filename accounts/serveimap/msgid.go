package serveimap

import (
	"context"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// msgIDKey is the one spelling a Message-ID is compared in, the asked
// one and the fetched one alike: surrounding space and one pair of angle
// brackets off, nothing else. No case folding: the local part of a
// Message-ID is case-sensitive, and an id that differs from the asked one
// in any byte names another message.
func msgIDKey(s string) string {
	s = strings.TrimSpace(s)
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">"))
}

// envelopeOnly is what confirming a candidate costs: its uid and envelope.
var envelopeOnly = &imap.FetchOptions{UID: true, Envelope: true}

// uidsWithMessageID is the uids of the selected folder whose Message-ID is
// exactly id (msgIDKey on both sides), ascending. It is the only way
// serve-imap looks a Message-ID up: IMAP's SEARCH HEADER matches
// substrings, case-insensitively (RFC 9051 6.4.4), so `<t@corp.example>`
// also hits `<x-t@corp.example.evil>`, a stranger's mail planted to be
// woken, settled or filed in place of ours. The search only narrows the
// candidates; each is kept only when its fetched envelope carries the
// same id. The envelope's id is compared as the server sent it (go-imap
// parses the msg-id): list and sync hand it out through textsafe.Line,
// which changes nothing in the printable ASCII every caller's id is made
// of (model.CleanMsgID), while an id that differs only in a byte Line
// drops is another message. A candidate the server gives no envelope for
// is not confirmed, so not answered: every caller's id was read off an
// envelope, and an error instead would let one broken stranger's mail
// put off every wake or settle of ours.
func (a *account) uidsWithMessageID(ctx context.Context, c *imapclient.Client, id string) ([]uint32, error) {
	want := msgIDKey(id)
	if want == "" {
		return nil, nil
	}
	ranges, err := uidsMatching(ctx, a, c, &imap.SearchCriteria{
		Header: []imap.SearchCriteriaHeaderField{{Key: "Message-ID", Value: want}},
	})
	if err != nil || len(ranges) == 0 {
		return nil, err
	}
	var set imap.UIDSet
	for _, r := range ranges {
		set.AddRange(imap.UID(r[0]), imap.UID(r[1]))
	}
	var out []uint32
	err = a.fetchEach(ctx, c, set, envelopeOnly, func(b *imapclient.FetchMessageBuffer) {
		if b.UID != 0 && b.Envelope != nil && msgIDKey(b.Envelope.MessageID) == want {
			out = append(out, uint32(b.UID))
		}
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
