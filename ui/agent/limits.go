package agent

import (
	"fmt"

	"unibox/model"
)

// The agent face checks every input's size before anything reaches an
// account (model's Max* constants say why each limit is what it is): an
// over-limit call is refused whole, with an error naming the field and
// the limit, and no IMAP command is sent for it.

// checkFolder refuses a folder name (field "folder" or "to") over
// model.MaxFolderBytes.
func checkFolder(field, folder string) error {
	return model.CheckBytes(field, folder, model.MaxFolderBytes)
}

// checkIDs refuses more than model.MaxIDsPerCall ids, or one over
// model.MaxIDBytes (named by its index: the id itself is not quoted).
func checkIDs(ids []string) error {
	if err := model.CheckCount("ids", len(ids), model.MaxIDsPerCall, "ids"); err != nil {
		return err
	}
	for i, id := range ids {
		if err := model.CheckBytes(fmt.Sprintf("ids[%d]", i), id, model.MaxIDBytes); err != nil {
			return err
		}
	}
	return nil
}

// checkNames refuses an account name longer than any id could carry:
// "no account X" would otherwise echo it whole.
func checkNames(names []string) error {
	if err := model.CheckCount("accounts", len(names), model.MaxIDsPerCall, "names"); err != nil {
		return err
	}
	for i, n := range names {
		if err := model.CheckBytes(fmt.Sprintf("accounts[%d]", i), n, model.MaxIDBytes); err != nil {
			return err
		}
	}
	return nil
}
