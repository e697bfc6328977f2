package imapwire

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	json "github.com/segmentio/encoding/json"
)

// Decode unmarshals a result's structured content into out. Content that
// RawResults lifted past the SDK is read straight from its bytes (and
// kept on res as them, for a second Decode).
func Decode(res *mcp.CallToolResult, out any) error {
	if res == nil || res.StructuredContent == nil {
		return fmt.Errorf("result has no structured content")
	}
	if m, ok := res.StructuredContent.(map[string]any); ok {
		b, isMarker, err := liftedContent(m)
		if err != nil {
			return err
		}
		if isMarker {
			res.StructuredContent = json.RawMessage(b)
		}
	}
	var raw []byte
	switch sc := res.StructuredContent.(type) {
	case json.RawMessage:
		raw = sc
	case []byte:
		raw = sc
	default:
		var err error
		if raw, err = json.Marshal(sc); err != nil {
			return fmt.Errorf("re-marshal structured content: %w", err)
		}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decode structured content: %w", err)
	}
	return nil
}
