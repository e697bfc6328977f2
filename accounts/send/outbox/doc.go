// Package outbox keeps what unibox is about to send on disk: the drafts
// a person is writing and the outbox of messages waiting to go out. They
// live under a root of their own ($XDG_DATA_HOME/unibox), never in the
// store: the store is a cache that may be set aside and rebuilt, and a
// draft or an unsent message is the one thing unibox holds that exists
// nowhere else.
//
// Two promises shape every file here (issue 26, "Never lost, never
// twice"):
//
//   - Never lost. Every write goes to a temp file in the same folder, is
//     fsynced, renamed over the old file and the folder fsynced: a kill -9
//     or a power cut at any moment leaves the old text or the new one,
//     never half of either. A draft stays until its message is sent and
//     saved, or a person discards it; an entry whose JSON is damaged is
//     set aside with its bodies, never dropped.
//   - Never twice. SMTP cannot be asked whether a message arrived, so an
//     entry is claimed with an flock before it is sent (one sender across
//     every unibox process) and marked "sending", fsynced, before the
//     body is written. An entry found "sending" whose lock is free lost
//     its sender mid-send: it becomes "unknown", and only a person sends
//     it again.
//
// On disk, under the root:
//
//	drafts/<id>.json     a draft's account, kind and original
//	drafts/<id>.eml      its text: the file the editor edits
//	outbox/<id>.json     an entry: its state and what to do after sending
//	outbox/<id>.wire     the message as it goes over SMTP (no Bcc)
//	outbox/<id>.saved    the copy for Sent (Bcc kept)
//	outbox/<id>.lock     flocked by the process sending it
//	outbox/<id>.json.broken-<time>   an entry that did not parse, set aside
//	sent-to/<account hash>           whom the account has sent to (sentto.go)
//	*/.tmp-*             a write under way, or one a crash cut short
package outbox
