package mcpprovider

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// emailMCPFixture mimics @codefuturist/email-mcp 0.2.0: every tool takes
// the account name, arguments are type-checked like its zod schemas,
// listings and messages are human text, errors are isError "Failed to …".
// A wrong MCP_EMAIL_PASSWORD makes every tool answer plain text
// "Error: Authentication failed" without isError (the habit of some
// servers that unibox must see through), except check_health, which
// answers its usual JSON with the IMAP side not connected.
func emailMCPFixture(k fxKnobs) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "email-mcp", Version: "0.2.0"}, nil)
	authOK := k.passwordOK(os.Getenv("MCP_EMAIL_PASSWORD"))
	acct := os.Getenv("MCP_EMAIL_ACCOUNT_NAME")
	if acct == "" {
		acct = "default"
	}
	refuse := func(map[string]any, *fxBox) (*mcp.CallToolResult, bool, error) {
		return textResult("Error: Authentication failed"), false, nil
	}
	tool := func(name string, h fxHandler) {
		addTool(s, k, name, authOK, refuse, func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
			if err := wantTypes(args, map[string]string{"account": "string"}); err != nil {
				return errorResult(err.Error()), false, nil
			}
			if args["account"] != acct {
				return errorResult(fmt.Sprintf("Failed to %s: Account %q not found", name, args["account"])), false, nil
			}
			return h(args, box)
		})
	}
	tool("list_emails", func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		if err := wantTypes(args, map[string]string{"mailbox": "string", "page": "int", "pageSize": "int", "seen": "bool"}); err != nil {
			return errorResult(err.Error()), false, nil
		}
		var msgs []fxMsg
		for _, m := range box.in(strOr(args["mailbox"], "INBOX")) {
			if seen, ok := args["seen"].(bool); !ok || m.Seen == seen {
				msgs = append(msgs, m)
			}
		}
		return textResult(emailMCPListing(strOr(args["mailbox"], "INBOX"), msgs, intOr(args["pageSize"], 20))), false, nil
	})
	tool("search_emails", func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		q := strings.ToLower(strOr(args["query"], ""))
		var msgs []fxMsg
		for _, m := range box.in(strOr(args["mailbox"], "INBOX")) {
			if strings.Contains(strings.ToLower(m.Subject+" "+m.Body+" "+m.FromAddr), q) {
				msgs = append(msgs, m)
			}
		}
		return textResult(emailMCPListing(strOr(args["mailbox"], "INBOX"), msgs, intOr(args["pageSize"], 20))), false, nil
	})
	tool("get_email", func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		if err := wantTypes(args, map[string]string{"emailId": "string", "mailbox": "string", "format": "string", "markRead": "bool"}); err != nil {
			return errorResult(err.Error()), false, nil
		}
		if args["markRead"] == true {
			return errorResult("fixture: unibox must never ask for markRead"), false, nil
		}
		m := fxFind(box, args["mailbox"], args["emailId"])
		if m == nil {
			return errorResult(fmt.Sprintf("Failed to get email: Email %v not found", args["emailId"])), false, nil
		}
		date := m.Date.UTC().Format("2006-01-02T15:04:05.000Z")
		if k.exists("plain-get") { // the bare variant: headers, blank line, body; no flags
			return textResult(fmt.Sprintf("From: %s <%s>\nTo: %s\nSubject: %s\nDate: %s\n\n%s",
				m.FromName, m.FromAddr, m.To, m.Subject, date, m.Body)), false, nil
		}
		status := "✓ Read"
		if !m.Seen {
			status = "🔵 Unread"
		}
		if m.Flagged {
			status += " · ⭐ Flagged"
		}
		return textResult(fmt.Sprintf("📧 %s\nStatus: %s\nFrom:   %s <%s>\nTo:     %s\nDate:   %s\nID:     <%d@fixture>\n\n--- Body ---\n\n%s",
			m.Subject, status, m.FromName, m.FromAddr, m.To, date, m.UID, m.Body)), false, nil
	})
	tool("mark_email", func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		if err := wantTypes(args, map[string]string{"id": "string", "mailbox": "string", "action": "string"}); err != nil {
			return errorResult(err.Error()), false, nil
		}
		m := fxFind(box, args["mailbox"], args["id"])
		if m == nil {
			return errorResult(fmt.Sprintf("Failed to mark email: Email %v not found", args["id"])), false, nil
		}
		switch args["action"] {
		case "read", "unread":
			m.Seen = args["action"] == "read"
		case "flag", "unflag":
			m.Flagged = args["action"] == "flag"
		default:
			return errorResult(fmt.Sprintf("MCP error -32602: invalid action %v", args["action"])), false, nil
		}
		return textResult(fmt.Sprintf("✅ Email %v marked as %v", args["id"], args["action"])), true, nil
	})
	tool("move_email", func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		if err := wantTypes(args, map[string]string{"emailId": "string", "sourceMailbox": "string", "destinationMailbox": "string"}); err != nil {
			return errorResult(err.Error()), false, nil
		}
		m := fxFind(box, args["sourceMailbox"], args["emailId"])
		if m == nil {
			return errorResult("Failed to move email: IMAP server rejected the move"), false, nil
		}
		box.moveTo(m, args["destinationMailbox"].(string))
		return textResult(fmt.Sprintf("✅ Email %v moved to %v", args["emailId"], args["destinationMailbox"])), true, nil
	})
	tool("delete_email", func(args map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		if err := wantTypes(args, map[string]string{"emailId": "string", "mailbox": "string", "permanent": "bool"}); err != nil || args["permanent"] != false {
			return errorResult(fmt.Sprintf("fixture: want permanent:false (%v)", err)), false, nil
		}
		m := fxFind(box, args["mailbox"], args["emailId"])
		if m == nil {
			return errorResult(fmt.Sprintf("Failed to delete email: Email %v not found", args["emailId"])), false, nil
		}
		box.moveTo(m, "Trash")
		return textResult(fmt.Sprintf("🗑️ Email %v moved to Trash", args["emailId"])), true, nil
	})
	tool("list_mailboxes", func(_ map[string]any, box *fxBox) (*mcp.CallToolResult, bool, error) {
		var b strings.Builder
		for _, f := range fxFolders {
			special := ""
			if f.special != "" {
				special = " [" + f.special + "]"
			}
			unread := 0
			for _, m := range box.in(f.name) {
				if !m.Seen {
					unread++
				}
			}
			fmt.Fprintf(&b, "• %s%s — %d messages", f.name, special, len(box.in(f.name)))
			if unread > 0 {
				fmt.Fprintf(&b, " (%d unread)", unread)
			}
			b.WriteString("\n")
		}
		return textResult(b.String()), false, nil
	})
	addEmailMCPSend(tool, k)
	addTool(s, k, "check_health", true, nil, func(map[string]any, *fxBox) (*mcp.CallToolResult, bool, error) {
		imap := `{"connected": true, "latency_ms": 3}`
		if !authOK {
			imap = `{"connected": false, "error": "Authentication failed.", "host": "127.0.0.1"}`
		}
		return textResult(fmt.Sprintf(`{"accounts": [{"name": %q, "auth_type": "password", "imap": %s,`+
			` "smtp": {"connected": false, "error": "connect ECONNREFUSED 127.0.0.1:2525"}}]}`, acct, imap)), false, nil
	})
	return s
}

// emailMCPListing prints a listing like email-mcp: page 1 holds the
// highest uids, printed in ascending order.
func emailMCPListing(folder string, msgs []fxMsg, pageSize int) string {
	if len(msgs) == 0 {
		return "No emails found matching the criteria."
	}
	total := len(msgs)
	if len(msgs) > pageSize {
		msgs = msgs[len(msgs)-pageSize:]
	}
	pages := (total + pageSize - 1) / pageSize
	var b strings.Builder
	fmt.Fprintf(&b, "📬 [%s] %d emails (page 1/%d)\n", folder, total, pages)
	for _, m := range msgs {
		var flags []string
		if !m.Seen {
			flags = append(flags, "🔵")
		}
		if m.Flagged {
			flags = append(flags, "⭐")
		}
		if m.Answered {
			flags = append(flags, "↩️")
		}
		if m.Attach {
			flags = append(flags, "📎")
		}
		from := m.FromAddr
		if m.FromName != "" {
			from = m.FromName + " <" + m.FromAddr + ">"
		}
		fmt.Fprintf(&b, "\n[%d] %s %s\n  From: %s | %s\n", m.UID, strings.Join(flags, " "), m.Subject, from,
			m.Date.UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	return b.String()
}

// fxFind finds a message by a string id, as email-mcp takes them.
func fxFind(box *fxBox, folder, id any) *fxMsg {
	s, _ := id.(string)
	uid, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return nil
	}
	return box.find(strOr(folder, "INBOX"), uint32(uid))
}
