// Package attach saves and opens a message's attachments on this
// machine. The provider child writes the decoded part into a private
// folder this package makes (never the parent holding it); this package
// then gives it a safe name (model/filename) that overwrites nothing, or
// hands it to the opener once it is sure it will not run (model/runnable).
package attach

import (
	"context"

	"unibox/model"
)

// Source is an account that writes an attachment into a file
// (accounts.Account.SavePart).
type Source interface {
	SavePart(ctx context.Context, id model.MessageID, index int, dir, name string) (model.Attachment, error)
}
