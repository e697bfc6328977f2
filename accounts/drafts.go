package accounts

import (
	"unibox/accounts/history"
	"unibox/model/textsafe"
)

// maxDraftEventBytes bounds what a draft event says: a subject is mail
// text, of any length an agent or a stranger chose.
const maxDraftEventBytes = 300

// DraftEvent records in the account's history that actor ("agent" or
// "person") verb ("created", "edited", "sent", "discarded") a draft;
// what says which (its subject and recipients). what is mail text, so
// it is made one line without controls, and cut short.
func (a *Account) DraftEvent(actor, verb, what string) {
	what = textsafe.Line(what)
	if len(what) > maxDraftEventBytes {
		cut := maxDraftEventBytes
		for cut > 0 && what[cut]&0xc0 == 0x80 {
			cut--
		}
		what = what[:cut] + "…"
	}
	a.hist.Add(history.KindDraft, "", "", textsafe.Line(actor)+" "+textsafe.Line(verb)+" a draft: "+what)
}

// CalendarEvent notes in the account's history what became of an
// accepted invitation handed to [calendar] add_cmd (issue 41).
func (h *Sending) CalendarEvent(text string) {
	h.a.hist.Add(history.KindCalendar, "", "", textsafe.Line(text))
}
