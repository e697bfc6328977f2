package accounts

import (
	"errors"

	"unibox/conn"
	"unibox/model"
)

// The account's borders: what goes in is checked against model's limits
// before anything is sent, and what comes out (errors, per-message
// results) is scrubbed of the account's secrets before any face sees it.

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

// scrubbed is an error whose text had the account's secrets removed; it
// still unwraps to the original, so errors.Is/As keep working.
type scrubbed struct {
	msg string
	err error
}

func (s *scrubbed) Error() string { return s.msg }
func (s *scrubbed) Unwrap() error { return s.err }

// scrub makes sure no error leaving an account carries its secret: a
// careless server may echo a password into its error text, and every face
// (TUI status line, list --json, unibox mcp) shows error text.
func (a *Account) scrub(err error) error {
	if err == nil || a.redact == nil {
		return err
	}
	var ce *conn.Error
	if errors.As(err, &ce) {
		cp := *ce
		if cp.Err != nil {
			cp.Err = &scrubbed{msg: a.redact(cp.Err.Error()), err: cp.Err}
		}
		return &cp
	}
	return &scrubbed{msg: a.redact(err.Error()), err: err}
}

// scrubResults scrubs each per-message error text of a triage outcome.
func (a *Account) scrubResults(res []model.ItemResult) []model.ItemResult {
	for i := range res {
		res[i].Err = a.Redact(res[i].Err)
	}
	return res
}
