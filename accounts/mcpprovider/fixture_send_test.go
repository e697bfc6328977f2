package mcpprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fixtures' send tools deliver nothing: each records the arguments it
// was given as one line of sent.log, which is what the tests read. Knobs:
// "send-refuse" makes the server refuse (as a real one relays a 5xx),
// "send-timeout" makes it say its SMTP side timed out, "send-says" makes
// it fail with the knob file's text (in the server's own error shape;
// "send-says-plain": as plain text without isError),
// and addTool's "die-<tool>" ends the child with the request read and no
// answer given.

// fxSendRecord is one send the fixture took.
type fxSendRecord map[string]any

// fxSend is a send tool's handler: it checks the argument types the real
// tool's schema demands, then records the send or fails as the knobs say.
// fail shapes an error answer the server's way; refuse and timeout are
// the texts of its refusal and its SMTP timeout.
func fxSend(k fxKnobs, types map[string]string, fail func(text string) (*mcp.CallToolResult, error), refuse, timeout string) fxHandler {
	return func(args map[string]any, _ *fxBox) (*mcp.CallToolResult, bool, error) {
		if err := wantTypes(args, types); err != nil {
			return errorResult(err.Error()), false, nil
		}
		switch {
		case k.exists("send-refuse"):
			res, err := fail(refuse)
			return res, false, err
		case k.exists("send-timeout"):
			res, err := fail(timeout)
			return res, false, err
		case k.exists("send-says"):
			text, err := os.ReadFile(k.path("send-says"))
			if err != nil {
				return nil, false, err
			}
			res, err := fail(string(text))
			return res, false, err
		case k.exists("send-says-plain"): // the same, as text without isError
			text, err := os.ReadFile(k.path("send-says-plain"))
			return textResult(string(text)), false, err
		}
		line, err := json.Marshal(args)
		if err != nil {
			return nil, false, err
		}
		k.log("sent", string(line))
		return textResult(fmt.Sprintf("✅ Email sent (Message-ID: <fixture-%d@example.com>)", os.Getpid())), false, nil
	}
}

// addEmailMCPSend adds email-mcp's send_email (arrays of addresses, the
// text body, isError answers) and a send_raw tool a config may map with
// {raw}.
func addEmailMCPSend(tool func(string, fxHandler), k fxKnobs) {
	isErr := func(text string) (*mcp.CallToolResult, error) { return errorResult(text), nil }
	tool("send_email", fxSend(k, map[string]string{"to": "strings", "cc": "strings", "bcc": "strings", "subject": "string", "body": "string"}, isErr,
		"Failed to send email: 550 5.1.1 <nobody@example.net>: Recipient address rejected\x1b]52;c;ZXZpbA==\x07",
		"Failed to send email: Timeout waiting for the server's answer"))
	tool("send_raw", fxSend(k, map[string]string{"message": "string", "sender": "string"}, isErr,
		"Failed to send: 554 rejected", "Failed to send: Greeting never received (timeout)"))
}

// addMailServerSend adds mcp-mail-server's send_email: comma-separated
// addresses, "text" for the body, thrown errors.
func addMailServerSend(tool func(string, string, fxHandler), k fxKnobs) {
	thrown := func(text string) (*mcp.CallToolResult, error) { return nil, errors.New(text) }
	tool("send_email", "Failed to send email", fxSend(k, map[string]string{"to": "string", "cc": "string", "bcc": "string",
		"subject": "string", "text": "string"}, thrown,
		"Failed to send email: Message failed: 550 5.1.1 <nobody@example.net>: Recipient address rejected",
		"Failed to send email: Connection timeout"))
}

// sent reads back what the fixture's send tools took.
func (w *world) sent() []fxSendRecord {
	data, _ := os.ReadFile(fxKnobs(w.dir).path("sent.log"))
	var out []fxSendRecord
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		var r fxSendRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			w.t.Fatalf("sent.log: %v", err)
		}
		out = append(out, r)
	}
	return out
}
