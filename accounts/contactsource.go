package accounts

import "unibox/accounts/contacts"

// ContactSource is what the contacts index (accounts/contacts) reads of
// the account: its name (the outbox's sent-to record is kept by it), its
// mailbox in the store, and its own addresses (from, aliases), which
// tell the person's messages in Sent from anyone else's.
func (a *Account) ContactSource() contacts.Source {
	src := contacts.Source{Account: a.name, Key: a.cache.key}
	if f := a.sending.from; f != nil && f.Address != "" {
		src.Own = append(src.Own, f.Address)
	}
	src.Own = append(src.Own, a.sending.aliases...)
	return src
}

// ContactSources are the accounts' sources, in their order.
func ContactSources(accts []*Account) []contacts.Source {
	out := make([]contacts.Source, len(accts))
	for i, a := range accts {
		out[i] = a.ContactSource()
	}
	return out
}
