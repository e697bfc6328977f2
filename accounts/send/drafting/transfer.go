package drafting

import (
	"context"
	"fmt"
	"time"

	"unibox/accounts/imapwire"
	"unibox/conn"
	"unibox/model"
	"unibox/model/compose"
)

// PartReader reads one attachment of a message (accounts.Account.Part).
type PartReader interface {
	Part(ctx context.Context, id model.MessageID, index int) (model.Part, error)
}

// Parts fetches n attachments of message id, as a forward or a reopened
// draft carries them. Each gets timeout plus the time the largest part
// takes on a slow link (conn.TransferTime, the rule the account and
// serve-imap use): a caller's fixed bound would cut a 25 MiB part that
// both halves below still allow for.
func Parts(ctx context.Context, c PartReader, id model.MessageID, n int, timeout time.Duration) ([]compose.Part, error) {
	var out []compose.Part
	for i := range n {
		cctx, cancel := context.WithTimeout(ctx, timeout+conn.TransferTime(imapwire.MaxPartBytes))
		p, err := c.Part(cctx, id, i)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("attachment %d: %w", i+1, err)
		}
		out = append(out, compose.Part{Name: p.Name, Type: p.Type, Data: p.Data})
	}
	return out, nil
}

// AppendBound is the bound of an APPEND of n bytes: timeout plus their
// transfer time, by the same rule.
func AppendBound(timeout time.Duration, n int) time.Duration {
	return timeout + conn.TransferTime(int64(n))
}
