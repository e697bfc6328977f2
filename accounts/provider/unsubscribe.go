package provider

import (
	"context"

	"unibox/accounts/unsubscribe"
	"unibox/conn"
	"unibox/model"
)

// Unsubscriber is a provider that can say what unsubscribing from a
// message could do: its List-Unsubscribe options and the DKIM verdict,
// worked out where the raw message is. A provider that cannot (a
// third-party MCP server) leaves `U` with nothing to offer.
type Unsubscriber interface {
	UnsubscribeInfo(ctx context.Context, a *conn.Adapter, id model.MessageID) (unsubscribe.Info, error)
}
