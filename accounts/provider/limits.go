package provider

// Limits are the most an account's server takes in one call, as its kind
// knows them (imapprovider: serve-imap's defaults, from imapwire). The
// account layer reads them here, from the Spec, and refuses more before
// anything is sent, with an error naming the limit: it never learns the
// wire of one kind to bound another. A zero field is no limit of the
// kind's own (a kind that cannot make the call at all).
type Limits struct {
	// AppendBytes is the largest message Mailer.Append stores.
	AppendBytes int
	// PartBytes is the largest attachment Mailer.Part brings back: what
	// a call fetching one is given time for (conn.TransferTime), by the
	// account and by drafting.Parts (through accounts.Sending.PartBytes).
	PartBytes int64
	// SentToAddresses is the most addresses, and the most own addresses,
	// one SentChecker.SentTo takes.
	SentToAddresses int
}
