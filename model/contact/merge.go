package contact

import "unibox/model/review"

// Merge puts an address book's answer (address_book_cmd: khard, a
// CardDAV query; in its own order) among the index's (ranked, best
// first), at most limit in all. The person keeps their address book, so
// it vouches for what it holds much as their own mail does: the
// addresses they wrote to come first, then the book's, then those that
// only wrote to them, then lists and robots. An address in both is
// ranked once, in the better place, with the index's counts; the book's
// name replaces a name learned from received mail, never one the person
// wrote.
func Merge(ranked []Entry, book []Contact, limit int) []Contact {
	inBook := map[string]int{}
	var fromBook []Contact
	for _, c := range book {
		k := review.AddressKey(c.Address)
		if _, dup := inBook[k]; k == "" || dup {
			continue
		}
		inBook[k] = len(fromBook)
		fromBook = append(fromBook, c)
	}
	var written, heard []Contact
	for _, e := range ranked {
		i, both := inBook[review.AddressKey(e.Address)]
		c := e.Contact
		if both && !e.NameWritten && fromBook[i].Name != "" {
			c.Name = fromBook[i].Name
		}
		switch {
		case e.Tier == TierWritten:
			written = append(written, c)
			if both {
				fromBook[i].Address = "" // taken
			}
		case both:
			fromBook[i] = c
		default:
			heard = append(heard, c) // heard, then bulk: ranked's order
		}
	}
	out := written
	for _, c := range fromBook {
		if c.Address != "" {
			out = append(out, c)
		}
	}
	out = append(out, heard...)
	if len(out) > limit {
		out = out[:max(limit, 0)]
	}
	return out
}
