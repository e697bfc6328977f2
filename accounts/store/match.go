package store

import (
	"context"
	"database/sql/driver"

	"modernc.org/sqlite"

	"unibox/model"
)

// unibox_match(subject, from_name, from_addr, text) is model.MatchFields
// inside SQLite, so the filter finds the same rows in the store as on the
// screen (SQLite's LIKE folds ASCII case only).
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("unibox_match", 4, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		str := func(v driver.Value) string { s, _ := v.(string); return s }
		return model.MatchFields(str(args[0]), str(args[1]), str(args[2]), str(args[3])), nil
	})
}

// Match is the newest limit stored rows of folder ("": the inbox) whose
// sender or subject holds text, as the list's filter matches.
func (s *Store) Match(ctx context.Context, k Key, folder, text string, limit int) (Snapshot, error) {
	return s.query(ctx, k, folder, limit, `unibox_match(subject, from_name, from_addr, ?)`, text)
}
