// Package accounts says what an account is, one job per file:
//
//   - account.go: the account handle: its resilient connection (conn) to
//     a provider child, and the operations the faces call (List, Search,
//     Get, Folders).
//   - open.go: the wiring: Open builds each account from the
//     provider.Spec its kind makes (imapprovider for IMAP, mcpprovider for
//     third-party MCP mail servers), with its store, history and the wake
//     watcher.
//   - health.go: Health, the one value every face renders: state and push
//     (named by conn and the provider, not spelt here), the constructor
//     HealthOf, and Watch, which follows it.
//   - words.go: Health and errors in words, one way per face (badge,
//     line, reason).
//   - fanout.go: one operation over all accounts, so that one dead
//     account never fails or slows the others.
//   - triage.go: writes, where one whose outcome is unknown is reconciled
//     by reading before anything is resent.
//   - cache.go: the account's part of the local store: what goes in, what
//     is read back without dialling, and the holds that keep a triage and
//     a gap's fill apart.
//   - sync.go: incremental sync into the store, and mending its gaps.
//   - events.go: the account's history (what it went through).
//   - guard.go: its borders: inputs checked against model's limits,
//     errors scrubbed of secrets.
//
// Beneath it, each in its own package: the config (config), the local
// store (store, the SQLite file every face reads first), the provider
// contract and its kinds (provider, imapprovider with serveimap and
// imapwire, mcpprovider), OAuth2 (oauth), the history file (history),
// the wake watcher (wake), private files (private), mail text (mailtext),
// secret scrubbing (secret), the demo (demo) and test servers
// (testservers).
package accounts
