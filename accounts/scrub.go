package accounts

import (
	"errors"

	"unibox/conn"
	"unibox/model"
)

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

func (a *Account) scrubResults(res []model.ItemResult) []model.ItemResult {
	for i := range res {
		res[i].Err = a.Redact(res[i].Err)
	}
	return res
}
