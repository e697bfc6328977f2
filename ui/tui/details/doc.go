// Package details is the account details screen (Box, `i`): the one
// place a person learns why an account is down (state, since, last error
// and its class, counts, the provider's stderr tail, its history) and
// why notify_cmd failed. It reads the account when opened, refreshed or
// changed (ChangedMsg), never once per frame, and asks the root for a
// refresh by RefreshMsg.
package details
