// Package accounts says what an account is: a resilient connection
// (conn) to a provider child, built by Open from the provider.Spec its
// kind makes (imapprovider for IMAP, mcpprovider for third-party MCP mail
// servers); how one operation fans out over all accounts so that one dead
// account never fails or slows the others; and triage, where a write whose
// outcome is unknown is reconciled by reading before anything is resent.
package accounts
