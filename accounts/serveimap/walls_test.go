package serveimap

import (
	"slices"
	"testing"

	"unibox/accounts/imapwire"
	"unibox/accounts/testservers/imaptest"
)

// special_folders on both servers: the four special folders as the other
// tools resolve them, the hierarchy delimiter, and every Sent or Drafts
// by any sign walled: special-use, a usual name that exists beside it
// ("INBOX.Sent" made by another client), and a configured sent_folder
// that is none of those.
func TestSpecialFolders(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b imaptest.Backend) {
		user, pass := b.NewUser(t)
		c := b.Client(t, user)
		for _, f := range []string{"INBOX.Sent", "Copies"} {
			if err := c.Create(f, nil).Wait(); err != nil {
				t.Fatal(err)
			}
		}
		cs := session(t, Options{})
		in := accountIn(b, user, pass)
		in.SentFolder = "Copies"
		mustOK(t, "add_account", call(t, cs, "add_account", in, nil))
		var out imapwire.SpecialFoldersOut
		mustOK(t, "special_folders", call(t, cs, "special_folders", imapwire.AccountIn{Account: "work"}, &out))
		if out.Sent != "Copies" || out.Drafts != "Drafts" || out.Archive != "Archive" || out.Trash != "Trash" || out.Delimiter == "" {
			t.Fatalf("special_folders: %s", pretty(out))
		}
		for _, want := range []string{"Copies", "Sent", "Drafts", "INBOX.Sent"} {
			if !slices.Contains(out.Walled, want) {
				t.Errorf("%q is not walled: %s", want, pretty(out))
			}
		}
		for _, not := range []string{"INBOX", "Archive", "Trash", "Junk"} {
			if slices.Contains(out.Walled, not) {
				t.Errorf("%q is walled: %s", not, pretty(out))
			}
		}
	})
}
