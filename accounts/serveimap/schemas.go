package serveimap

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools' JSON schemas are inferred from their Go types once, when the
// code changes (toolschemas.json, which TestToolSchemasAreCurrent keeps
// equal to what the types give and rewrites with -update), not in every
// child: inferring them by reflection, and the SDK's checks of each at
// registration (it encodes and decodes every schema it is given), took
// 10 ms of each child's start and 2.5 MB of allocations, 0.8 MB of it
// kept for good, with twenty children starting side by side on two
// cores. A tool is registered with the smallest schema the SDK accepts;
// tools/list serves the stored ones (fullSchemas), byte for byte what
// inference gave; an input schema is resolved for validation at its
// tool's first call.

//go:embed toolschemas.json
var toolSchemasJSON []byte

// toolSchema is one tool's schemas, as tools/list gives them.
type toolSchema struct {
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output"`
}

// toolSchemas reads the stored schemas once per process.
var toolSchemas = sync.OnceValues(func() (map[string]toolSchema, error) {
	var m map[string]toolSchema
	if err := json.Unmarshal(toolSchemasJSON, &m); err != nil {
		return nil, fmt.Errorf("toolschemas.json: %w", err)
	}
	return m, nil
})

// registered is the schema a tool is registered with: an object, as the
// SDK requires; the real one is served by fullSchemas.
var registered = &jsonschema.Schema{Type: "object"}

// schemaOf is a tool's stored schemas. A tool missing from the file (a
// build that skipped the test: go test ./accounts/serveimap -run
// TestToolSchemasAreCurrent -update) has them inferred now, the slow way.
func schemaOf(name string, infer inferred) (toolSchema, error) {
	if all, err := toolSchemas(); err == nil {
		if sc, ok := all[name]; ok {
			return sc, nil
		}
	}
	in, out, err := infer()
	if err != nil {
		return toolSchema{}, err
	}
	inJSON, err := json.Marshal(in)
	if err != nil {
		return toolSchema{}, err
	}
	outJSON, err := json.Marshal(out)
	return toolSchema{Input: inJSON, Output: outJSON}, err
}

// resolver resolves a tool's input schema at its first use.
func resolver(name string, infer inferred) func() (*jsonschema.Resolved, error) {
	return sync.OnceValues(func() (*jsonschema.Resolved, error) {
		sc, err := schemaOf(name, infer)
		if err != nil {
			return nil, fmt.Errorf("tool %s: schemas: %w", name, err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(sc.Input, &s); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("tool %s: resolve input schema: %w", name, err)
		}
		return r, nil
	})
}

// fullSchemas is receiving middleware: a tools/list answer carries every
// tool's stored schemas in place of the one it was registered with.
func (s *Server) fullSchemas(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return res, err
		}
		full := *list
		full.Tools = make([]*mcp.Tool, len(list.Tools))
		for i, t := range list.Tools {
			c := *t // the registered tool is shared: never written
			if infer := s.inferred[t.Name]; infer != nil {
				sc, err := schemaOf(t.Name, infer)
				if err != nil {
					return nil, fmt.Errorf("tool %s: schemas: %w", t.Name, err)
				}
				c.InputSchema, c.OutputSchema = sc.Input, sc.Output
			}
			full.Tools[i] = &c
		}
		return &full, nil
	}
}

// inferred is what a tool's Go types give: the schemas as the file must
// hold them (the test compares).
type inferred func() (in, out *jsonschema.Schema, err error)

func inferFor[In, Out any]() inferred {
	return func() (*jsonschema.Schema, *jsonschema.Schema, error) {
		in, err := jsonschema.For[In](nil)
		if err != nil {
			return nil, nil, err
		}
		out, err := jsonschema.For[Out](nil)
		return in, out, err
	}
}
