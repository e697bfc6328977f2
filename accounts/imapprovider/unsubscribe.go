package imapprovider

import (
	"context"
	"fmt"

	"unibox/accounts/imapwire"
	"unibox/accounts/provider"
	"unibox/accounts/unsubscribe"
	"unibox/conn"
	"unibox/model"
)

var _ provider.Unsubscriber = imapProvider{}

// UnsubscribeInfo asks serve-imap (unsubscribe_info): it holds the raw
// message, so the DKIM check is made there and only the verdict crosses.
func (p imapProvider) UnsubscribeInfo(ctx context.Context, a *conn.Adapter, id model.MessageID) (unsubscribe.Info, error) {
	if err := p.checkValidity(imapwire.ToolUnsubscribeInfo, id.Folder, id.UIDValidity); err != nil {
		return unsubscribe.Info{}, err
	}
	var out imapwire.UnsubscribeInfoOut
	in := imapwire.UnsubscribeInfoIn{Account: p.account, Folder: id.Folder, UID: id.UID}
	if _, err := provider.Call(ctx, a, imapwire.ToolUnsubscribeInfo, in, true, &out, imapwire.Decode); err != nil {
		return unsubscribe.Info{}, err
	}
	if out.UIDValidity != id.UIDValidity {
		return unsubscribe.Info{}, &conn.Error{Account: p.account, Op: imapwire.ToolUnsubscribeInfo, Class: conn.ClassTool,
			Err: fmt.Errorf("folder %s changed (UIDVALIDITY %d, was %d): reload it", model.Quote(id.Folder), out.UIDValidity, id.UIDValidity)}
	}
	return out.Info, nil
}
