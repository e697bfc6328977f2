package imapwire

import "unibox/accounts/unsubscribe"

// UnsubscribeInfoIn is unsubscribe_info's input: one message by folder
// and uid.
type UnsubscribeInfoIn struct {
	Account string `json:"account"`
	Folder  string `json:"folder,omitempty" jsonschema:"default INBOX"`
	UID     uint32 `json:"uid"`
}

// UnsubscribeInfoOut is unsubscribe_info's answer: the message's
// List-Unsubscribe options and the DKIM verdict on them, worked out
// where the raw message is (serve-imap); the message itself stays there.
type UnsubscribeInfoOut struct {
	ErrorInfo
	UIDValidity uint32 `json:"uidvalidity" jsonschema:"the folder's, to check the uid still names the same message"`
	unsubscribe.Info
}
