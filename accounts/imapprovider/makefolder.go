package imapprovider

import (
	"context"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/conn"
)

// MakeFolder makes folder when missing (create_folder: idempotent, so it
// may be retried once after a drop).
func (p imapProvider) MakeFolder(ctx context.Context, a *conn.Adapter, folder string) (bool, error) {
	var out imapwire.CreateFolderOut
	_, err := provider.Call(ctx, a, imapwire.ToolCreateFolder, imapwire.CreateFolderIn{Account: p.account, Folder: folder}, true, &out, imapwire.Decode)
	return out.Created, err
}
