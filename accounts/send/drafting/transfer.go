package drafting

import (
	"context"
	"fmt"
	"time"

	"unibox/conn"
	"unibox/model"
	"unibox/model/compose"
)

// PartReader reads one attachment of a message (accounts.Sending.Part).
type PartReader interface {
	Part(ctx context.Context, id model.MessageID, index int) (model.Part, error)
}

// PartSizer is a PartReader that says the largest attachment its
// account's server brings back in one call: accounts.Sending.PartBytes,
// the provider.Spec's Limits.PartBytes. The limit comes with the account
// that reads, from its kind, so that drafting never learns one kind's
// wire (imapwire) to bound every account's transfers.
type PartSizer interface {
	PartBytes() int64
}

// partBytes is the largest part r's account brings back: its own limit,
// or 0 (no transfer time beyond the caller's bound) from a reader that
// states none, as a test's in-memory account.
func partBytes(r PartReader) int64 {
	if s, ok := r.(PartSizer); ok {
		return s.PartBytes()
	}
	return 0
}

// Parts fetches n attachments of message id, as a forward or a reopened
// draft carries them. Each gets timeout plus the time the largest part
// c's account takes (PartSizer) needs on a slow link (conn.TransferTime,
// the rule the account and serve-imap use): a caller's fixed bound would
// cut a 25 MiB part that both halves below still allow for.
func Parts(ctx context.Context, c PartReader, id model.MessageID, n int, timeout time.Duration) ([]compose.Part, error) {
	bound := timeout + conn.TransferTime(partBytes(c))
	var out []compose.Part
	for i := range n {
		cctx, cancel := context.WithTimeout(ctx, bound)
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
