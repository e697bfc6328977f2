package agent

import (
	"context"
	"encoding/base64"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/model"
)

// MaxAttachmentBytes is the most get_attachment returns: base64 makes it
// a third bigger, and an agent's context has to hold it. A bigger part
// is for a person to save (S in the TUI).
const MaxAttachmentBytes = 10 << 20

// attachmentLimit is MaxAttachmentBytes, lowered by tests: a part over
// 10 MB through a race-built child took 19 s to build and list.
var attachmentLimit int64 = MaxAttachmentBytes

// GetAttachmentIn is get_attachment's input: one attachment of a
// message, index counting as get_message's attachments do (from 0). The
// list comes from the same parse everywhere, so the index names the same
// part in the TUI's A list.
type GetAttachmentIn struct {
	ID    string `json:"id" jsonschema:"the message id; at most 512 bytes"`
	Index int    `json:"index" jsonschema:"the attachment's position in get_message's attachments, from 0"`
}

// GetAttachmentOut is get_attachment's answer: the attachment's name,
// media type (as the mail declares it: not checked), size, and content.
type GetAttachmentOut struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Size    int64  `json:"size"`
	Content string `json:"content" jsonschema:"the decoded content, base64 (standard, padded); at most 10 MB (10485760 bytes) decoded"`
}

func (h *Hub) addAttachmentTool(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "get_attachment", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
		Description: "One attachment of a message, by its index in get_message's attachments: name, type, size and the content as base64, up to 10 MB (10485760 bytes); a bigger one is refused, saying so."}, h.getAttachment)
}

func (h *Hub) getAttachment(ctx context.Context, _ *mcp.CallToolRequest, in GetAttachmentIn) (*mcp.CallToolResult, GetAttachmentOut, error) {
	if err := model.CheckBytes("id", in.ID, model.MaxIDBytes); err != nil {
		return nil, GetAttachmentOut{}, err
	}
	id, err := model.ParseMessageID(in.ID)
	if err != nil {
		return nil, GetAttachmentOut{}, err
	}
	if in.Index < 0 {
		return nil, GetAttachmentOut{}, fmt.Errorf("index %d: attachments count from 0", in.Index)
	}
	a := h.set.Find(id.Account)
	if a == nil {
		return nil, GetAttachmentOut{}, fmt.Errorf("no account %s", model.Quote(id.Account))
	}
	// The list first: its sizes say whether the part may come at all,
	// before any of it crosses a pipe.
	cctx, cancel := context.WithTimeout(ctx, h.timeout)
	b, err := a.Get(cctx, id)
	cancel()
	if err != nil {
		return nil, GetAttachmentOut{}, fmt.Errorf("%s: %s", a.Name(), a.Redact(accounts.Reason(err)))
	}
	if in.Index >= len(b.Attachments) {
		return nil, GetAttachmentOut{}, fmt.Errorf("index %d: the message has %d attachments", in.Index, len(b.Attachments))
	}
	at := b.Attachments[in.Index]
	if at.Size > attachmentLimit {
		return nil, GetAttachmentOut{}, tooBig(in.Index, at.Name, at.Size)
	}
	cctx, cancel = context.WithTimeout(ctx, h.timeout+accounts.TransferTime(at.Size))
	defer cancel()
	p, err := a.Part(cctx, id, in.Index)
	if err != nil {
		return nil, GetAttachmentOut{}, fmt.Errorf("%s: %s", a.Name(), a.Redact(accounts.Reason(err)))
	}
	if int64(len(p.Data)) > attachmentLimit {
		return nil, GetAttachmentOut{}, tooBig(in.Index, p.Name, int64(len(p.Data)))
	}
	// Encoded here: the schema the SDK infers for []byte is an array of
	// numbers, which its own check of the output would refuse.
	out := GetAttachmentOut{Name: p.Name, Type: p.Type, Size: int64(len(p.Data)), Content: base64.StdEncoding.EncodeToString(p.Data)}
	return text(nil, fmt.Sprintf("attachment %d: %s, %s, %d bytes (content: base64 in the structured result)", in.Index, model.Quote(out.Name), out.Type, out.Size)), out, nil
}

func tooBig(index int, name string, size int64) error {
	return fmt.Errorf("index %d: attachment %s is %d bytes, over get_attachment's limit of %s (%d bytes); a person can save it from the TUI (S)",
		index, model.Quote(name), size, limitWords(attachmentLimit), attachmentLimit)
}

// limitWords says a limit as people read it: 10 MB for 10 MiB.
func limitWords(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}
