package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"unibox/accounts"
	"unibox/accounts/store"
	"unibox/model"
)

// `unibox list --folder NAME`: another folder than the inbox, read as the
// inbox is (synced, from the store with --cached). A server answers a
// folder it lacks with a bare NO; the list says which folder is missing
// and which the account has, so a script's author can fix the name.

// newest is a's newest page of folder ("": the inbox) from its server. A
// folder the server refuses is looked up among the account's folders:
// missing, the error names it and the folders there are; named by its
// role instead ("sent" where the folder is "Sent Items"), the folder with
// that role is listed.
func newest(ctx context.Context, a *accounts.Account, folder string, limit int, unread bool) (accounts.Page, error) {
	opts := accounts.ListOptions{Folder: folder, Limit: limit, UnreadOnly: unread}
	p, err := a.Newest(ctx, opts)
	if err == nil || folder == "" || ctx.Err() != nil {
		return p, err
	}
	folders, ferr := a.Folders(ctx)
	if ferr != nil {
		return p, err // the account is in trouble: its own error says so
	}
	var names []string
	for _, f := range folders {
		if model.CanonicalFolder(f.Name) == model.CanonicalFolder(folder) {
			return p, err // it exists: the error is about something else
		}
		names = append(names, f.Name)
	}
	if role := roleFolder(folders, folder); role != "" {
		opts.Folder = role
		return a.Newest(ctx, opts)
	}
	// A accounts.Error, so that the list's error column says this (Reason) and
	// keeps the class of the server's refusal.
	return p, &accounts.Error{Account: a.Name(), Class: accounts.ClassOf(err), Err: &noFolderError{folder: folder, names: names, err: err}}
}

// roleFolder is the one folder whose special use name names ("Sent" is
// the sent folder whatever the server calls it), or "".
func roleFolder(folders []model.Folder, name string) string {
	found := ""
	for _, f := range folders {
		if f.SpecialUse != "" && strings.EqualFold(f.SpecialUse, name) {
			if found != "" {
				return "" // two with the role: the name says neither
			}
			found = f.Name
		}
	}
	return found
}

// noFolderError is a folder the account does not have; it keeps the
// server's refusal (its class) underneath.
type noFolderError struct {
	folder string
	names  []string
	err    error
}

func (e *noFolderError) Error() string {
	return fmt.Sprintf("no folder %q (folders: %s)", e.folder, strings.Join(e.names, ", "))
}
func (e *noFolderError) Unwrap() error { return e.err }

// notStoredFolder is the account's error when --cached finds nothing of a
// folder in the store: never synced is not the same as empty.
func notStoredFolder(folder string, err error) string {
	if folder == "" || !errors.Is(err, store.ErrNotStored) {
		return ""
	}
	return fmt.Sprintf("local store: folder %q was never stored (`unibox list --folder %s` or `unibox sync --folder %s` stores it)", folder, folder, folder)
}
