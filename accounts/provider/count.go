package provider

import (
	"context"

	"unibox/conn"
)

// Counter is a provider that counts a folder on the server (IMAP's
// folder_status: STATUS MESSAGES UNSEEN) without listing it. A provider
// without it is counted from what the store holds of the folder, which is
// the real count only when the store holds all of it.
type Counter interface {
	Count(ctx context.Context, a *conn.Adapter, folder string) (FolderCount, error)
}

// FolderCount is a folder's counts as its server keeps them.
type FolderCount struct {
	Total, Unread uint32
}
