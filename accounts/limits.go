package accounts

import (
	"errors"

	"unibox/conn"
	"unibox/model"
)

// checkInputs refuses, before anything is sent, a query or folder name no
// mail server should be sent (model's Max* limits say why). The faces check
// first, in their own words (`unibox mcp` refuses the whole call); this is
// the floor under every face. The error is a tool error of this call only:
// the connection is untouched, nothing is cooled down.
func (a *Account) checkInputs(op string, query *string, folders ...string) error {
	var errs []error
	if query != nil {
		errs = append(errs, model.CheckBytes("query", *query, model.MaxQueryBytes))
	}
	for _, f := range folders {
		errs = append(errs, model.CheckBytes("folder", f, model.MaxFolderBytes))
	}
	if err := errors.Join(errs...); err != nil {
		return &conn.Error{Account: a.name, Op: op, Class: conn.ClassTool, Err: err}
	}
	return nil
}
