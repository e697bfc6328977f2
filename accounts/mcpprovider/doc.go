// Package mcpprovider turns a config account of kind "mcp" (any MCP mail
// server someone else wrote, started as a child process) into what unibox's
// accounts package needs: how to start the child, what to run after every
// connect, how to read the server's errors, how to probe its health, and a
// provider.Provider that maps unibox's operations onto the server's tools.
//
// Why a package of its own: third-party servers differ in everything that
// matters for "nothing lost". They take different arguments, answer in
// human text or in JSON, report errors as isError results, as thrown
// JSON-RPC errors or as plain text without isError, and some of their
// writes do not do what their names promise (mcp-mail-server's markSeen is
// a no-op and its delete expunges other mail too). So each known server has
// a built-in profile (a table of operation -> tool call, and of operations
// it must not be trusted with), an account may override or add mappings in
// its config, and every answer is parsed defensively: an answer we cannot
// read is a protocol error of that account only, never a panic and never a
// silently empty inbox.
//
// Secrets: these servers read credentials only from their environment, so
// each child gets an explicit, minimal environment (PATH, HOME, the
// account's own env table and its own secret, fetched afresh on every
// dial) and never the parent's environment or another account's secret.
package mcpprovider
