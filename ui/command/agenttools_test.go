package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"unibox/accounts"
	"unibox/ui/agent"
)

// README's list of the tools `unibox mcp` serves names every one of
// them, from the server's own tools/list (it lacked snooze, issue 37
// item 16). The list is the sentence "(tools `a`, `b`, … and the
// drafting tools below)"; the drafting tools (draft in their names) are
// named in the section "Agents draft, people send".
func TestReadmeNamesEveryAgentTool(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	_, list, ok := strings.Cut(readme, "serves every account to an agent over stdio (tools")
	list, _, _ = strings.Cut(list, ");")
	_, drafting, _ := strings.Cut(readme, "### Agents draft, people send")
	drafting, _, _ = strings.Cut(drafting, "\n#")
	if !ok || !strings.Contains(list, "the drafting tools below") || drafting == "" {
		t.Fatal("README has no list of the agent's tools, or no section on its drafting tools")
	}

	hub := agent.New(&accounts.Set{}, 0)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := hub.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "docs"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait(); hub.Close() }()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) == 0 {
		t.Fatalf("tools/list: %v, %d tools", err, len(res.Tools))
	}
	for _, tool := range res.Tools {
		where, in := list, "list of the agent's tools"
		if strings.Contains(tool.Name, "draft") {
			where, in = drafting, "section on the drafting tools"
		}
		if !strings.Contains(where, "`"+tool.Name+"`") {
			t.Errorf("README's %s misses `%s`", in, tool.Name)
		}
	}
}
