package mcpprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mailServerEnv are the variables mcp-mail-server requires at startup.
var mailServerEnv = []string{"IMAP_HOST", "IMAP_PORT", "IMAP_SECURE", "SMTP_HOST", "SMTP_PORT", "SMTP_SECURE", "EMAIL_USER", "EMAIL_PASS"}

// mailServerFixture mimics mcp-mail-server 1.2.1: it exits at startup
// when a variable is missing, takes no folder argument, answers with JSON
// text, and throws (a JSON-RPC error) for every failure, a refused login
// included. Its address fields vary in shape by uid, as they do between
// node-imap and mailparser code paths.
func mailServerFixture(k fxKnobs) (*mcp.Server, error) {
	var missing []string
	for _, v := range mailServerEnv {
		if os.Getenv(v) == "" {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("Missing required environment variables: %s", strings.Join(missing, ", "))
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mcp-mail", Version: "1.0.0"}, nil)
	authOK := k.passwordOK(os.Getenv("EMAIL_PASS"))
	tool := func(name, failure string, h fxHandler) {
		refuse := func(map[string]any, *fxBox) (*mcp.CallToolResult, bool, error) {
			return nil, false, errors.New(failure + ": [AUTHENTICATIONFAILED] Authentication failed.")
		}
		addTool(s, k, name, authOK, refuse, h)
	}
	list := func(unseen bool) fxHandler {
		return func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
			if err := wantTypes(args, map[string]string{"limit": "number"}); err != nil {
				return nil, false, err
			}
			var out []any
			msgs := box.in("INBOX")
			for i := len(msgs) - 1; i >= 0 && len(out) < intOr(args["limit"], 50); i-- {
				if !unseen || !msgs[i].Seen {
					out = append(out, mailServerJSON(msgs[i], false))
				}
			}
			return jsonResult(out)
		}
	}
	tool("get_recent_messages", "Failed to get recent messages", list(false))
	tool("get_unseen_messages", "Failed to get unseen messages", list(true))
	tool("get_message", "Failed to get message", func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		if err := wantTypes(args, map[string]string{"uid": "number", "markSeen": "bool"}); err != nil {
			return nil, false, err
		}
		if args["markSeen"] == true {
			return nil, false, errors.New("fixture: unibox must never ask for markSeen")
		}
		uid, _ := args["uid"].(float64)
		m := box.find("INBOX", uint32(uid))
		if m == nil {
			return nil, false, fmt.Errorf("Failed to get message: Message with UID %v not found", args["uid"])
		}
		return jsonResult(mailServerJSON(*m, true))
	})
	search := func(field string, match func(fxMsg, string) bool) fxHandler {
		return func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
			if err := wantTypes(args, map[string]string{field: "string", "inboxOnly": "bool"}); err != nil {
				return nil, false, err
			}
			folders := []string{"INBOX"}
			if args["inboxOnly"] != true {
				folders = append(folders, "Sent")
			}
			var out []any
			for _, f := range folders {
				for _, m := range box.in(f) {
					if match(m, strings.ToLower(args[field].(string))) {
						j := mailServerJSON(m, false)
						j["mailbox"] = f
						out = append(out, j)
					}
				}
			}
			return jsonResult(map[string]any{"searchType": "By " + field, "searchValue": args[field],
				"mailboxesSearched": []any{}, "totalMatches": len(out), "messages": out})
		}
	}
	tool("search_by_body", "Search by body failed", search("text", func(m fxMsg, q string) bool { return strings.Contains(strings.ToLower(m.Body), q) }))
	tool("search_by_subject", "Search by subject failed", search("subject", func(m fxMsg, q string) bool { return strings.Contains(strings.ToLower(m.Subject), q) }))
	tool("search_by_sender", "Search by sender failed", search("sender", func(m fxMsg, q string) bool { return strings.Contains(strings.ToLower(m.FromAddr), q) }))
	tool("list_mailboxes", "Failed to list mailboxes", func(map[string]any, *fxBox) (*mcp.CallToolResult, bool, error) {
		tree := map[string]any{"INBOX": map[string]any{"name": "INBOX", "attribs": []any{}, "delimiter": "/", "selectable": true}}
		for _, f := range fxFolders[1:] {
			attribs := []any{}
			if f.special != "" {
				attribs = append(attribs, f.special)
			}
			tree[f.name] = map[string]any{"name": f.name, "attribs": attribs, "delimiter": "/", "selectable": true}
		}
		tree["[Gmail]"] = map[string]any{"name": "[Gmail]", "attribs": []any{`\Noselect`}, "delimiter": "/", "selectable": false,
			"children": map[string]any{"Starred": map[string]any{"name": "[Gmail]/Starred", "attribs": []any{}, "selectable": true}}}
		return jsonResult(tree)
	})
	tool("get_message_count", "Failed to get message count", func(_ map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		return textResult(fmt.Sprintf("Total messages: %d", len(box.in("INBOX")))), false, nil
	})
	addMailServerSend(tool, k)
	tool("delete_message", "Failed to delete message", func(map[string]any, *fxBox) (*mcp.CallToolResult, bool, error) {
		return nil, false, errors.New("fixture: unibox must never call delete_message")
	})
	return s, nil
}

// mailServerJSON is one message as mcp-mail-server prints it; the shape of
// from and to varies with the uid.
func mailServerJSON(m fxMsg, full bool) map[string]any {
	flags := []any{}
	if m.Seen {
		flags = append(flags, `\Seen`)
	}
	if m.Flagged {
		flags = append(flags, `\Flagged`)
	}
	var from any
	switch m.UID % 4 {
	case 0:
		from = fmt.Sprintf("%s <%s>", m.FromName, m.FromAddr)
	case 1:
		from = map[string]any{"name": m.FromName, "address": m.FromAddr}
	case 2:
		from = map[string]any{"value": []any{map[string]any{"name": m.FromName, "address": m.FromAddr}},
			"text": fmt.Sprintf("%s <%s>", m.FromName, m.FromAddr)}
	default:
		from = []any{map[string]any{"name": m.FromName, "address": m.FromAddr}}
	}
	j := map[string]any{"uid": m.UID, "flags": flags, "date": m.Date.UTC().Format("2006-01-02T15:04:05.000Z"),
		"size": 0, "subject": m.Subject, "from": from, "to": m.To, "attachments": []any{}}
	if full {
		j["text"], j["html"] = m.Body, false
	}
	return j
}

func jsonResult(v any) (*mcp.CallToolResult, bool, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, false, err
	}
	return textResult(string(b)), false, nil
}

// wantTypes checks argument types like the servers' schemas do.
func wantTypes(args map[string]any, types map[string]string) error {
	for k, typ := range types {
		v, ok := args[k]
		if !ok {
			continue
		}
		f, isNum := v.(float64)
		_, isStr := v.(string)
		_, isBool := v.(bool)
		if typ == "strings" && !isStrings(v) || typ == "string" && !isStr || typ == "bool" && !isBool || typ == "number" && !isNum ||
			typ == "int" && (!isNum || f != float64(int64(f))) {
			return fmt.Errorf("MCP error -32602: Invalid arguments: %s: expected %s, received %T", k, typ, v)
		}
	}
	return nil
}

// isStrings reports a JSON array of strings (an address list).
func isStrings(v any) bool {
	list, ok := v.([]any)
	for _, e := range list {
		if _, isStr := e.(string); !isStr {
			return false
		}
	}
	return ok
}

func strOr(v any, def string) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return def
}

func intOr(v any, def int) int {
	if f, ok := v.(float64); ok && f > 0 {
		return int(f)
	}
	return def
}
