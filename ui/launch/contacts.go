package launch

import (
	"unibox/accounts"
	"unibox/accounts/contacts"
)

// Contacts is the contacts index over accts (issue 38), the one every
// face asks (the TUI's To: prompt, `unibox contacts`, the agent's
// lookup_contact): the store's count of who wrote to whom, the outbox's
// sent-to record, and [compose] address_book_cmd. Whatever of them
// cannot be opened is left out, and the Book answers from the rest;
// warning says what was left out ("" when nothing was).
func (e *Env) Contacts(accts []*accounts.Account) (book *contacts.Book, warning string) {
	o := contacts.Options{Store: e.Store, Sources: accounts.ContactSources(accts), External: e.Config.Compose.AddressBook()}
	box, err := e.Outbox()
	if err != nil {
		warning = "contacts: the outbox's record of whom you wrote to is left out: " + err.Error()
	} else {
		o.Outbox = box
	}
	return contacts.New(o), warning
}
