package mcpprovider

import (
	"slices"

	"unibox/accounts/config"
)

// Operation names: the keys of an account's [account.tools.<op>] tables.
const (
	opList       = "list"
	opGet        = "get"
	opSearch     = "search"
	opSetSeen    = "set_seen"
	opSetFlagged = "set_flagged"
	opArchive    = "archive"
	opTrash      = "trash"
	opMove       = "move"
	opFolders    = "folders"
	opProbe      = "probe"
	opSend       = "send"
)

// opPlaceholders lists, per operation, the placeholders that have a value
// when it runs. Build rejects a mapping that uses any other one, so a typo
// fails at startup instead of sending "{uid}" to a server as a literal.
var opPlaceholders = map[string][]string{
	opList:       {"folder", "limit"},
	opGet:        {"folder", "uid", "id"},
	opSearch:     {"folder", "query", "limit"},
	opSetSeen:    {"folder", "uid", "id", "seen", "action"},
	opSetFlagged: {"folder", "uid", "id", "flagged", "action"},
	opArchive:    {"folder", "uid", "id"},
	opTrash:      {"folder", "uid", "id"},
	opMove:       {"folder", "uid", "id", "to"},
	opFolders:    {},
	opProbe:      {},
	// send: {to}, {cc}, {bcc} are lists of bare addresses (JSON arrays);
	// {to_csv}, {cc_csv}, {bcc_csv} the same as one comma-separated string;
	// {body} is the text part, {raw} the whole RFC 5322 message.
	opSend: {"from", "to", "cc", "bcc", "to_csv", "cc_csv", "bcc_csv", "subject", "body", "raw"},
}

// operations are the operation names, sorted, for error messages.
func operations() []string {
	ops := make([]string, 0, len(opPlaceholders))
	for op := range opPlaceholders {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	return ops
}

// mapping is how one operation runs on a server.
type mapping struct {
	call config.ToolCall
	// also are further searches whose results are merged with call's,
	// deduplicated by uid (a server with one search tool per field).
	also []config.ToolCall
	// unread is a list variant that asks the server for unread mail only;
	// nil filters call's answer instead.
	unread *config.ToolCall
}

// profile is what unibox knows about one kind of server.
type profile struct {
	name      string
	secretEnv string // the child variable the server reads its password from
	maxLimit  int    // the server's largest page size; 0: no cap
	ops       map[string]mapping
	// why holds operations the server lacks or must not be trusted with,
	// with the reason shown to the user.
	why map[string]string
}

// builtins are the profiles unibox ships, by name. Each takes the
// account's env table (email-mcp's account argument comes from it).
var builtins = map[string]func(env map[string]string) *profile{
	"email-mcp":       emailMCP,
	"mcp-mail-server": mcpMailServer,
}

// Profiles returns the built-in profile names, sorted.
func Profiles() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// emailMCP is @codefuturist/email-mcp 0.2.0. Every tool takes the account
// name its env-configured account goes by: MCP_EMAIL_ACCOUNT_NAME, else
// "default". It reads with BODY.PEEK unless markRead is set, which we
// never set: opening a message must not mark it read behind the user's back.
func emailMCP(env map[string]string) *profile {
	acct := "default"
	if v := env["MCP_EMAIL_ACCOUNT_NAME"]; v != "" {
		acct = v
	}
	call := func(tool string, args map[string]any) config.ToolCall {
		args["account"] = acct
		return config.ToolCall{Tool: tool, Args: args}
	}
	unread := call("list_emails", map[string]any{"mailbox": "{folder}", "pageSize": "{limit}", "page": 1, "seen": false})
	return &profile{
		name:      "email-mcp",
		secretEnv: "MCP_EMAIL_PASSWORD",
		maxLimit:  100, // list_emails and search_emails reject a larger pageSize
		ops: map[string]mapping{
			opList: {
				call:   call("list_emails", map[string]any{"mailbox": "{folder}", "pageSize": "{limit}", "page": 1}),
				unread: &unread,
			},
			opGet:        {call: call("get_email", map[string]any{"emailId": "{id}", "mailbox": "{folder}", "format": "text"})},
			opSearch:     {call: call("search_emails", map[string]any{"mailbox": "{folder}", "query": "{query}", "pageSize": "{limit}"})},
			opSetSeen:    {call: call("mark_email", map[string]any{"id": "{id}", "mailbox": "{folder}", "action": "{action}"})},
			opSetFlagged: {call: call("mark_email", map[string]any{"id": "{id}", "mailbox": "{folder}", "action": "{action}"})},
			opArchive: {call: call("move_email", map[string]any{"emailId": "{id}", "sourceMailbox": "{folder}",
				"destinationMailbox": "Archive"})},
			opTrash: {call: call("delete_email", map[string]any{"emailId": "{id}", "mailbox": "{folder}", "permanent": false})},
			opMove: {call: call("move_email", map[string]any{"emailId": "{id}", "sourceMailbox": "{folder}",
				"destinationMailbox": "{to}"})},
			opFolders: {call: call("list_mailboxes", map[string]any{})},
			opProbe:   {call: call("check_health", map[string]any{})},
			// send_email takes arrays of addresses and the text body; it
			// cannot carry attachments, so a message with some is refused.
			opSend: {call: call("send_email", map[string]any{"to": "{to}", "cc": "{cc}", "bcc": "{bcc}",
				"subject": "{subject}", "body": "{body}"})},
		},
		why: map[string]string{},
	}
}

// mcpMailServer is mcp-mail-server 1.2.1: one account per process, no
// folder argument on its list tools (so only INBOX is reachable), and
// none of its writes can be trusted (see the why table).
func mcpMailServer(map[string]string) *profile {
	tc := func(tool string, args map[string]any) config.ToolCall { return config.ToolCall{Tool: tool, Args: args} }
	unread := tc("get_unseen_messages", map[string]any{"limit": "{limit}"})
	// inboxOnly: its searches also look in the Sent folder, whose uids
	// would be shown as (and collide with) INBOX uids.
	return &profile{
		name:      "mcp-mail-server",
		secretEnv: "EMAIL_PASS",
		ops: map[string]mapping{
			opList: {call: tc("get_recent_messages", map[string]any{"limit": "{limit}"}), unread: &unread},
			opGet:  {call: tc("get_message", map[string]any{"uid": "{uid}"})},
			opSearch: {
				call: tc("search_by_body", map[string]any{"text": "{query}", "inboxOnly": true}),
				also: []config.ToolCall{
					tc("search_by_subject", map[string]any{"subject": "{query}", "inboxOnly": true}),
					tc("search_by_sender", map[string]any{"sender": "{query}", "inboxOnly": true}),
				},
			},
			opFolders: {call: tc("list_mailboxes", map[string]any{})},
			// Its cheapest tool that reaches the mail server (it connects lazily).
			opProbe: {call: tc("get_message_count", map[string]any{})},
			// send_email takes comma-separated addresses and the text body.
			opSend: {call: tc("send_email", map[string]any{"to": "{to_csv}", "cc": "{cc_csv}", "bcc": "{bcc_csv}",
				"subject": "{subject}", "text": "{body}"})},
		},
		why: map[string]string{
			opSetSeen:    "mcp-mail-server cannot mark messages read (its markSeen is a no-op: it fetches from a mailbox opened read-only)",
			opSetFlagged: "mcp-mail-server has no tool to flag messages",
			opArchive:    "mcp-mail-server has no tool to move messages, so it cannot archive",
			opMove:       "mcp-mail-server has no tool to move messages",
			opTrash: "mcp-mail-server can only delete permanently, and its delete_message expunges every message " +
				"marked deleted in INBOX, not just this one",
		},
	}
}
