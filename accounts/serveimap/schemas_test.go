package serveimap

import (
	"bytes"
	"context"
	"strings"

	"encoding/json"
	"flag"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"os"
	"reflect"
	"testing"
)

var updateSchemas = flag.Bool("update", false, "rewrite toolschemas.json from the tools' Go types")

// TestToolSchemasAreCurrent: the stored schemas are exactly what the
// tools' Go types give, so a child never serves a stale one: a field
// added to an input or output fails here until the file is rewritten
// (-update). Every registered tool has its schemas, and the file holds
// no other.
func TestToolSchemasAreCurrent(t *testing.T) {
	s := New(Options{})
	s.MCP()
	want := map[string]toolSchema{}
	for name, infer := range s.inferred {
		in, out, err := infer()
		if err != nil {
			t.Fatalf("tool %s: %v", name, err)
		}
		inJSON, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		outJSON, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		want[name] = toolSchema{Input: inJSON, Output: outJSON}
	}
	b, err := json.MarshalIndent(want, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *updateSchemas {
		if err := os.WriteFile("toolschemas.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(b, toolSchemasJSON) {
		t.Fatal("toolschemas.json is not what the tools' Go types give: run go test ./accounts/serveimap -run TestToolSchemasAreCurrent -update")
	}
}

// TestToolsListServesTheFullSchemas: a client listing the tools gets each
// one's schemas as inference gives them (not the bare object a tool is
// registered with), and a call is still validated against them.
func TestToolsListServesTheFullSchemas(t *testing.T) {
	cs := session(t, Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := toolSchemas()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		var want, wantOut any
		if err := json.Unmarshal(stored[tool.Name].Input, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(stored[tool.Name].Output, &wantOut); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tool.InputSchema, want) || !reflect.DeepEqual(tool.OutputSchema, wantOut) {
			t.Errorf("tools/list %s: input %v, want the stored schemas", tool.Name, tool.InputSchema)
		}
		if m, _ := tool.InputSchema.(map[string]any); m["properties"] == nil {
			t.Errorf("tools/list %s: input schema %v has no properties", tool.Name, tool.InputSchema)
		}
	}
	// A call is checked against the full input schema: a wrong type is
	// refused before the tool runs.
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_messages", Arguments: map[string]any{"account": "x", "limit": "many"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.IsError || !strings.Contains(r.Content[0].(*mcp.TextContent).Text, "validating arguments") {
		t.Fatalf("list_messages with a string limit: %v %s, want refused by the schema", r.IsError, r.Content[0].(*mcp.TextContent).Text)
	}
}
