// Package config loads and validates unibox's TOML configuration.
//
// The file lives at $XDG_CONFIG_HOME/unibox/config.toml (or
// ~/.config/unibox/config.toml), or wherever the caller says. It describes
// the accounts, the resilience dials of their connections, the UI and the
// key bindings; config.example.toml at the repository root documents every
// key.
//
// The package is strict on purpose: a typo in a config file that is
// silently ignored shows up much later as "unibox does not archive to my
// folder". So every unknown key is an error, every error names the file,
// the line and the key path (account[1].security), and all errors are
// reported at once, sorted by line, so one edit fixes them all.
//
// Secrets never live in the file: an account names a command (password_cmd)
// or an environment variable (password_env) that yields its password, and
// Account.Password runs it only when a connection actually needs it.
package config
