package provider

import (
	"context"

	"unibox/conn"
)

// FolderMaker is a provider that can make a folder when it is missing
// (the snooze folder). Making one that exists is no error.
type FolderMaker interface {
	MakeFolder(ctx context.Context, a *conn.Adapter, folder string) (created bool, err error)
}
