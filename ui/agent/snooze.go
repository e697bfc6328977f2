package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/model"
)

// SnoozeIn is snooze's input: the messages, by id, and when they wake.
type SnoozeIn struct {
	IDs   []string `json:"ids" jsonschema:"at most 1000 ids, each at most 512 bytes"`
	Until string   `json:"until" jsonschema:"when they come back to INBOX, RFC 3339 (2026-12-05T08:00:00+01:00), in the future; at most 64 bytes"`
}

// maxSnooze bounds until: a wake years away is a typo, not a plan.
const maxSnooze = 5 * 366 * 24 * time.Hour

// maxUntilBytes bounds until's text: an RFC 3339 time is 35 bytes at most
// with nanoseconds.
const maxUntilBytes = 64

// parseUntil reads until, naming the field and the limit when it is bad.
func parseUntil(s string, now time.Time) (time.Time, error) {
	if err := model.CheckBytes("until", s, maxUntilBytes); err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339, s)
	switch {
	case s == "":
		return time.Time{}, fmt.Errorf("until: missing; give a time in RFC 3339, like %s", now.Add(time.Hour).Format(time.RFC3339))
	case err != nil:
		return time.Time{}, fmt.Errorf("until: %s is not an RFC 3339 time, like %s", model.Quote(s), now.Add(time.Hour).Format(time.RFC3339))
	case !t.After(now):
		return time.Time{}, fmt.Errorf("until: %s is not in the future", t.Format(time.RFC3339))
	case t.Sub(now) > maxSnooze:
		return time.Time{}, fmt.Errorf("until: %s is more than 5 years away", t.Format(time.RFC3339))
	}
	return t, nil
}

func (h *Hub) snooze(ctx context.Context, _ *mcp.CallToolRequest, in SnoozeIn) (*mcp.CallToolResult, WriteOut, error) {
	until, err := parseUntil(in.Until, h.now())
	if err != nil {
		return nil, WriteOut{}, err
	}
	return h.writeEach(ctx, in.IDs, "snoozed until "+until.Format(time.RFC3339), snoozeDest, func(ctx context.Context, b *batch) ([]Outcome, error) {
		msgs := make([]model.Message, len(b.ids))
		for i, id := range b.ids {
			msgs[i] = model.Message{ID: id}
		}
		final := map[model.MessageID]Outcome{}
		res, err := b.acct.Snoozing().Snooze(ctx, msgs[0].ID.Folder, msgs[0].ID.UIDValidity, msgs, until)
		if err != nil {
			why := b.acct.Redact(accounts.Reason(err))
			for _, m := range msgs {
				final[m.ID] = Outcome{ID: m.ID.String(), Status: "failed", Error: why}
			}
			return collect(b.ids, final), err
		}
		outcomes(b.acct, msgs, res, final)
		return collect(b.ids, final), nil
	})
}
