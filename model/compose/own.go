package compose

import "strings"

// Owns says whether addr is one of the identity's own addresses (its from
// or an alias; case is ignored, as everywhere here). Only such an address
// may be a sent message's From and its envelope sender: a draft found in
// Drafts, or a file handed to `unibox send`, may claim anyone.
func (self Identity) Owns(addr string) bool {
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return false
	}
	if sameAddress(addr, self.From.Address) {
		return true
	}
	for _, a := range self.Aliases {
		if sameAddress(addr, strings.TrimSpace(a)) {
			return true
		}
	}
	return false
}
