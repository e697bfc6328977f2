package accounts

import (
	"context"
	"errors"
	"slices"
	"strings"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/model"
)

// Specials is where the account's special folders are (provider.Specials).
type Specials = provider.Specials

// usualWalled are Sent's and Drafts' usual names, for a provider that
// cannot resolve its folders itself (a third-party MCP server).
var usualWalled = []string{"Sent", "Sent Messages", "Sent Items", "Sent Mail", "[Gmail]/Sent Mail", "INBOX.Sent",
	"Drafts", "[Gmail]/Drafts", "INBOX.Drafts"}

// Specials is where the account's special folders are, resolved by its
// server: serve-imap answers from special-use, the configured names and
// its LIST, as its own tools resolve them. A provider that cannot answer
// that is read from its folder list (special-use, else the usual names);
// one without a folder list walls the usual names only. Walled always
// holds the usual names too. The agent face keeps agents' writes out of
// Walled.
func (a *Account) Specials(ctx context.Context) (Specials, error) {
	if sf, ok := a.ops.(provider.SpecialFinder); ok {
		sp, err := sf.SpecialFolders(ctx, a.adapter)
		// The usual names besides, though absent: a folder made later
		// under one of them is walled from the start.
		sp.Walled = append(sp.Walled, usualWalled...)
		return sp, a.scrub(err)
	}
	folders, err := a.Folders(ctx)
	if errors.Is(err, provider.ErrUnsupported) {
		return Specials{Walled: slices.Clone(usualWalled)}, nil
	}
	if err != nil {
		return Specials{}, err
	}
	return specialsOf(folders), nil
}

// specialsOf reads a folder list: each kind's special-use folder, else
// the first usual name listed; Walled is every Sent or Drafts by either
// sign, and the usual names besides.
func specialsOf(folders []model.Folder) Specials {
	sp := Specials{Walled: slices.Clone(usualWalled)}
	for _, k := range []struct {
		kind  string
		to    *string
		names []string
	}{{imapwire.SpecialArchive, &sp.Archive, []string{"Archive", "Archives", "[Gmail]/All Mail"}}, {imapwire.SpecialTrash, &sp.Trash, []string{"Trash", "Deleted Items", "[Gmail]/Trash"}},
		{imapwire.SpecialSent, &sp.Sent, usualWalled[:6]}, {imapwire.SpecialDrafts, &sp.Drafts, usualWalled[6:]}} {
		for _, f := range folders {
			if f.SpecialUse == k.kind && *k.to == "" {
				*k.to = f.Name
			}
		}
		for _, n := range k.names {
			if i := slices.IndexFunc(folders, func(f model.Folder) bool { return strings.EqualFold(f.Name, n) }); i >= 0 && *k.to == "" {
				*k.to = folders[i].Name
			}
		}
	}
	for _, f := range folders {
		if f.SpecialUse == imapwire.SpecialSent || f.SpecialUse == imapwire.SpecialDrafts {
			sp.Walled = append(sp.Walled, f.Name)
		}
	}
	return sp
}
