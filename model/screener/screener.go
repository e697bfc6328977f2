// Package screener decides whether a message reaches the inbox or waits
// for the person (issue 40): mail from a sender never let in and never
// written to waits; a From that fails DMARC waits however known the
// address; a sender screened out leaves. It is pure: the account gathers
// what it knows (accounts/screening.go) and asks Judge.
package screener

import (
	"strings"

	"github.com/emersion/go-msgauth/authres"

	"unibox/model"
	"unibox/model/review"
)

// Decisions on senders, as the book keeps them (accounts/rulebook).
const (
	In  = "in"
	Out = "out"
)

// Facts are what an account knows when it judges.
type Facts struct {
	// Started: the screener runs; INBOX mail below UIDNext of
	// UIDValidity came before it was turned on and is never screened.
	Started     bool
	UIDValidity uint32
	UIDNext     uint32
	// Decided: the person's decisions (and the senders let in at start),
	// by address key or "@domain".
	Decided map[string]string
	// Written: the person wrote to the address (an address key) from one
	// of the account's own addresses.
	Written func(addr string) bool
	// OwnThread: the thread holds a message in Sent with the person's own
	// From.
	OwnThread func(threadID string) bool
}

// Judge is where m goes.
func Judge(f Facts, m model.Message) model.Screen {
	if !f.Started || !model.SameFolder(m.ID.Folder, model.InboxFolder) {
		return model.ScreenNone
	}
	if m.ID.UIDValidity == f.UIDValidity && m.ID.UID < f.UIDNext {
		return model.ScreenNone // here before the screener
	}
	addr := Key(m.From.Address)
	if f.Decided[addr] == Out {
		return model.ScreenOut
	}
	if DMARCFails(m.Headers) {
		return model.ScreenForged
	}
	if addr != "" && (f.Decided[addr] == In || f.Written != nil && f.Written(addr)) {
		return model.ScreenNone
	}
	if m.ThreadID != "" && f.OwnThread != nil && f.OwnThread(m.ThreadID) {
		return model.ScreenNone
	}
	if d := Domain(addr); d != "" && f.Decided[d] == Out {
		return model.ScreenOut
	}
	return model.ScreenNew
}

// Key is an address as decisions name it.
func Key(addr string) string { return review.AddressKey(strings.TrimSpace(addr)) }

// Domain is "@domain" of an address key ("" without one).
func Domain(addr string) string {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 || i == len(addr)-1 {
		return ""
	}
	return "@" + strings.ToLower(addr[i+1:])
}

// AuthResultsHeader is the field DMARCFails reads: the sync fetches it
// for accounts with a screener.
const AuthResultsHeader = "Authentication-Results"

// DMARCFails says whether the topmost Authentication-Results field (the
// one the person's own server added last; any below it came with the
// mail and may be forged) says dmarc=fail. A missing or unreadable field
// says nothing: only a fail screens.
func DMARCFails(headers []model.Header) bool {
	for _, h := range headers {
		if !strings.EqualFold(h.Name, AuthResultsHeader) {
			continue
		}
		_, results, err := authres.Parse(h.Value)
		if err != nil {
			return false
		}
		for _, r := range results {
			if d, ok := r.(*authres.DMARCResult); ok && d.Value == authres.ResultFail {
				return true
			}
		}
		return false
	}
	return false
}
