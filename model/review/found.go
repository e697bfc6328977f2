package review

import "unibox/model"

// A draft's origin, apart from what it says (kept in its own block: the
// marks above are about recipients and text).
const (
	// KindFound: the draft was found in a Drafts folder and not written
	// from this data directory (a stranger's mail moved there, another
	// machine's draft): nobody here vouches for any line of it.
	KindFound Kind = "found_in_drafts"
)

// FoundMark is the mark of a found draft, naming its From as the draft
// gives it: the address it claims to be written by.
func FoundMark(from model.Address) Mark {
	who := from.Address
	if who == "" {
		who = "no address"
	}
	return mark(KindFound, "", from.Address, "found in Drafts, not written here · from "+Visible(who))
}
