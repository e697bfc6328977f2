package accounts

// Stored is the account's handle on its part of the store and the sync
// that fills it: the newest stored page of a folder, the pages below it,
// the rows a filter matches, the stored folders, one step of the sync,
// and a listing that leaves the store alone. Every account has one:
// without a store its reads answer store.ErrNotStored. Reads never dial.
type Stored struct{ a *Account }

// Watching is the account's handle on what its provider pushes: the
// inbox's changes (IMAP IDLE) and the one other folder it follows. Every
// account has one: a kind that cannot push delivers nothing.
type Watching struct{ a *Account }

// Stored is the account's store handle.
func (a *Account) Stored() *Stored { return a.feat.stored }

// Watching is the account's push handle.
func (a *Account) Watching() *Watching { return a.feat.watch }
